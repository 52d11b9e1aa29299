// Lets the benchmarks load the project's TypeScript (sandbox, signing, store helpers) as it is,
// transpiled on the fly by ts-node with swc (tsconfig's "ts-node": { "swc": true }), no type check.
let registered = false

function registerTs() {
  if (registered) return
  require("ts-node").register({ transpileOnly: true, project: require("node:path").join(__dirname, "..", "..", "tsconfig.json") })
  registered = true
}

module.exports = { registerTs }

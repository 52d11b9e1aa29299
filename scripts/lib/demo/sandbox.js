// Starts the local PayLater sandbox with its own CLI (the same one `npm run sandbox` and
// `npx paylater-sandbox` run), its webhooks aimed at the demo store's webhook route.
const path = require("node:path")

function startSandbox({ config, supervisor, onUnexpectedExit }) {
  const tsNode = path.join(config.root, "node_modules", "ts-node", "dist", "bin.js")
  const args = [
    tsNode,
    "--transpile-only",
    path.join("src", "sandbox", "cli.ts"),
    "--port",
    String(config.ports.sandbox),
    "--webhook-url",
    config.urls.webhook,
  ]
  return supervisor.start("sandbox", process.execPath, args, { cwd: config.root, env: process.env, onUnexpectedExit })
}

module.exports = { startSandbox }

#!/usr/bin/env node
// Where a server's CPU went, from a V8 .cpuprofile (node --cpu-prof, e.g. a benchmark run with
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=.tmp/prof"): self time grouped by package (or by our
// own src/ file), and the heaviest functions.
//
//   node bench/profile-summary.js .tmp/prof/CPU.*.cpuprofile [top=25]
const fs = require("node:fs")

const [file, topArg] = process.argv.slice(2)
if (!file) {
  console.error("usage: node bench/profile-summary.js <file.cpuprofile> [top]")
  process.exit(2)
}
const top = Number(topArg) || 25
const profile = JSON.parse(fs.readFileSync(file, "utf8"))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map()
const deltas = profile.timeDeltas
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0))
}
const total = [...self.values()].reduce((a, b) => a + b, 0)

function groupOf(url, name) {
  if (!url) return name.startsWith("(") ? name : "(node internals)"
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1]
  const own = /\/src\/(.+)$/.exec(url)
  if (own) return `src/${own[1]}`
  if (url.startsWith("node:")) return "(node internals)"
  return url
}

const groups = new Map()
const functions = new Map()
for (const [id, us] of self) {
  const { callFrame } = byId.get(id)
  const group = groupOf(callFrame.url, callFrame.functionName)
  groups.set(group, (groups.get(group) ?? 0) + us)
  const fn = `${callFrame.functionName || "(anonymous)"} ${group}:${callFrame.lineNumber + 1}`
  functions.set(fn, (functions.get(fn) ?? 0) + us)
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms\n\nself time by package / own file:`)
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)} ${ms(us)}  ${g}`)
console.log(`\nheaviest functions (self):`)
for (const [f, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)} ${ms(us)}  ${f}`)

// Inclusive time of our own functions (and of Medusa's workflow engine and Query), counted once
// per stack: what each of them costs with everything it calls.
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const inclusive = new Map()
const WATCH = /\/src\/|workflows-sdk\/dist\/helper\/workflow-export|orchestration\/dist\/transaction\/transaction-orchestrator|remote-query\/remote-query|modules-sdk\/dist\/remote-query/
for (const [id, us] of self) {
  const seen = new Set()
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const { callFrame } = byId.get(cur)
    if (!WATCH.test(callFrame.url)) continue
    const key = `${callFrame.functionName || "(anonymous)"} ${groupOf(callFrame.url, callFrame.functionName)}:${callFrame.lineNumber + 1}`
    if (seen.has(key)) continue
    seen.add(key)
    inclusive.set(key, (inclusive.get(key) ?? 0) + us)
  }
}
console.log(`\nour code and Medusa's engine, inclusive:`)
for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)} ${ms(us)}  ${f}`)

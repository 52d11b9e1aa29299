#!/usr/bin/env node
// Writes integration-tests/suite-seconds.json (the order jest starts the suites of each tier in:
// integration-tests/sequencer.js) from the last full run's .tmp/test-times-<tier>.json files: a tier
// whose file is missing keeps the seconds it had.
const fs = require("node:fs")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const target = path.join(root, "integration-tests", "suite-seconds.json")
const kept = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, "utf8")) : {}
const isIntegration = (name) => name.startsWith("integration-tests/")
let seconds = kept
for (const tier of ["unit", "integration"]) {
  const file = path.join(root, ".tmp", `test-times-${tier}.json`)
  if (!fs.existsSync(file)) continue
  const ofTier = tier === "integration" ? isIntegration : (name) => !isIntegration(name)
  const fresh = JSON.parse(fs.readFileSync(file, "utf8")).suites.map((s) => [s.name, Math.round(s.seconds)])
  seconds = { ...Object.fromEntries(Object.entries(seconds).filter(([name]) => !ofTier(name))), ...Object.fromEntries(fresh) }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]))
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`)
console.log(`integration-tests/suite-seconds.json: ${Object.keys(sorted).length} suites`)

#!/usr/bin/env node
// Writes integration-tests/suite-seconds.json (the order jest starts the integration suites in:
// integration-tests/sequencer.js) from the last full integration run's .tmp/test-times-integration.json.
const fs = require("node:fs")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const times = JSON.parse(fs.readFileSync(path.join(root, ".tmp", "test-times-integration.json"), "utf8"))
const seconds = Object.fromEntries(
  times.suites.sort((a, b) => b.seconds - a.seconds).map((s) => [s.name, Math.round(s.seconds)])
)
fs.writeFileSync(path.join(root, "integration-tests", "suite-seconds.json"), `${JSON.stringify(seconds, null, 2)}\n`)
console.log(`integration-tests/suite-seconds.json: ${Object.keys(seconds).length} suites`)

// The order jest starts the suites of a tier in: the longest first, by the seconds each took in a
// full run (integration-tests/suite-seconds.json, both tiers). The workers then finish together
// instead of one running a long suite alone at the end, which is what jest's own order gives a fresh
// clone (it has no timing cache there, so it orders by file size). A suite missing from the file
// counts as a minute in the integration tier and as a second in the unit tier; refresh the file from
// a full run's `.tmp/test-times-*.json` with `node scripts/suite-seconds.js`.
const fs = require("node:fs")
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

const ROOT = path.resolve(__dirname, "..")
const UNKNOWN_SECONDS = { integration: 60, unit: 1 }

function knownSeconds() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, "suite-seconds.json"), "utf8"))
  } catch {
    return {}
  }
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = knownSeconds()
    const name = (test) => path.relative(ROOT, test.path)
    const of = (test) => seconds[name(test)]
    if (!tests.some((t) => of(t) !== undefined)) return super.sort(tests)
    const unknown = (test) => (name(test).startsWith("integration-tests/") ? UNKNOWN_SECONDS.integration : UNKNOWN_SECONDS.unit)
    return [...tests].sort((a, b) => (of(b) ?? unknown(b)) - (of(a) ?? unknown(a)))
  }
}

module.exports = LongestFirst

// The order jest starts the integration suites in: the longest first, by the seconds each took in a
// full run (integration-tests/suite-seconds.json). Two workers then finish together instead of one
// running a 15-minute suite alone at the end, which is what jest's own order gives a fresh clone (it
// has no timing cache there, so it orders by file size). A suite missing from the file counts as a
// minute; refresh the file from a full run's `.tmp/test-times-integration.json` with
// `node scripts/suite-seconds.js`.
const fs = require("node:fs")
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

const ROOT = path.resolve(__dirname, "..")
const UNKNOWN_SECONDS = 60

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
    const of = (test) => seconds[path.relative(ROOT, test.path)]
    if (!tests.some((t) => of(t) !== undefined)) return super.sort(tests)
    return [...tests].sort((a, b) => (of(b) ?? UNKNOWN_SECONDS) - (of(a) ?? UNKNOWN_SECONDS))
  }
}

module.exports = LongestFirst

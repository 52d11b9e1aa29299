// Every benchmark ends the same way: its figures printed, and the same figures written as JSON to
// .tmp/bench-results/<name>.json so `bench/run-all.js` can build one summary table from them.
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const { SMOKE } = require("./stats")

// Smoke runs (bench/run-all.js --smoke) write elsewhere: they never replace a real result.
const RESULTS_DIR = path.join(__dirname, "..", "..", ".tmp", SMOKE ? "bench-smoke-results" : "bench-results")

/** Machine facts worth writing next to a figure: a shared 2-core box makes the load part of it. */
function machine() {
  return {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadavg: os.loadavg().map((n) => Number(n.toFixed(2))),
    node: process.version,
  }
}

/**
 * @param {string} name     file-safe benchmark name
 * @param {{ goal: string, met: boolean, headline: string, details: object }} result
 */
function report(name, result) {
  const full = { name, smoke: SMOKE, ...result, machineAtEnd: machine() }
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(full, null, 2)}\n`)
  console.log(`\n[${name}] ${SMOKE ? "(smoke run: tiny counts, not a measurement) " : ""}${result.headline}`)
  console.log(`[${name}] goal: ${result.goal} -> ${SMOKE ? "not judged in a smoke run" : result.met ? "MET" : "MISSED"}`)
  console.log(`[${name}] load average at end: ${full.machineAtEnd.loadavg.join(", ")} (${full.machineAtEnd.cpus} cpus)`)
  return full
}

module.exports = { report, machine, RESULTS_DIR }

// The benchmark side of bench/lib/backlog-probe.js: read the server's webhook settlement figures,
// and wait until a burst has been settled.
const fs = require("node:fs")
const path = require("node:path")
const { sleep } = require("./proc")
const { RESULTS_DIR } = require("./report")

/** Node flags and env for startStack(): preload the probe, writing to a file of this benchmark. */
function backlogProbe(name) {
  // On a shared stack the server was booted with its probe already: read the file it writes.
  const shared = require("./stack").sharedStack()
  if (shared) {
    if (!shared.backlogFile) throw new Error(`${name} reads the settlement figures: the shared stack was booted without the probe`)
    return { file: shared.backlogFile, nodeArgs: [] }
  }
  const file = path.join(RESULTS_DIR, `${name}.backlog.json`)
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  fs.rmSync(file, { force: true })
  process.env.BENCH_BACKLOG_REPORT = file // inherited by the server
  return { file, nodeArgs: ["--require", path.join(__dirname, "backlog-probe.js")] }
}

/** The latest figures: { at, running, waiting, completed, limit }. */
function readBacklog(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"))
  } catch {
    return null
  }
}

/**
 * Resolves once at least `target` settlements have completed and nothing is running or waiting;
 * `onSample` sees every reading (e.g. to track the longest wait line). Throws after `maxMs`, or as
 * soon as `stopIf` gives a reason (the server died: nothing more will be settled).
 */
async function waitForSettled(file, target, { maxMs = 900_000, onSample, stopIf } = {}) {
  const start = Date.now()
  let last = null
  while (Date.now() - start < maxMs) {
    const stop = stopIf?.()
    if (stop) throw new Error(`${stop} while waiting for the webhook backlog (last: ${JSON.stringify(last)}, wanted ${target} completed)`)
    const now = readBacklog(file)
    if (now && now.at !== last?.at) {
      last = now
      onSample?.(now)
      if (now.completed >= target && now.running === 0 && now.waiting === 0) return { waitedMs: Date.now() - start, last: now }
    }
    await sleep(100)
  }
  throw new Error(`the webhook backlog was not settled within ${maxMs / 1000} s (last: ${JSON.stringify(last)}, wanted ${target} completed)`)
}

module.exports = { backlogProbe, readBacklog, waitForSettled }

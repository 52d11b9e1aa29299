// What the kernel says about the Medusa server process: CPU time used (to price deferred work that
// happens after a request was answered) and resident memory (VmRSS).
const fs = require("node:fs")
const { procCpu } = require("../../scripts/lib/proc-cpu")

/** utime + stime of the process, in milliseconds. */
function cpuMs(pid) {
  return procCpu(pid).own * 1000
}

/** VmRSS in MiB (/proc/<pid>/status reports kB). */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1])
  return kb / 1024
}

/** Whether the process still exists (signal 0 only checks). */
function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Waits until the process has been nearly idle (< `idleShare` of one core) for a whole `windowMs`,
 * but at least `minMs` and at most `maxMs`. Used after a load round so work the round queued (the
 * webhook pipeline's delayed events) is finished before the next round starts and is counted.
 * @returns {Promise<{ waitedMs: number, settled: boolean }>}
 */
async function waitUntilIdle(pid, { minMs = 0, maxMs = 60_000, windowMs = 1000, idleShare = 0.05 } = {}) {
  const start = Date.now()
  if (minMs) await sleep(minMs)
  let last = cpuMs(pid)
  while (Date.now() - start < maxMs) {
    await sleep(windowMs)
    const now = cpuMs(pid)
    const share = (now - last) / windowMs
    last = now
    if (share < idleShare) return { waitedMs: Date.now() - start, settled: true }
  }
  return { waitedMs: Date.now() - start, settled: false }
}

module.exports = { cpuMs, rssMiB, waitUntilIdle, sleep, alive }

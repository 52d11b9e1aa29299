// The benchmarks' smoke run as part of `npm test` (scripts/test.js).
const os = require("node:os")
const path = require("node:path")
const { spawn } = require("node:child_process")

/**
 * Every benchmark once with tiny counts (`node bench/run-all.js --smoke`): a benchmark that no longer
 * runs is a failed test, each benchmark one test. Nothing is timed. Its own database and servers.
 * `output`: where its output goes (a file when it runs alongside the integration tier); `niceness`:
 * its priority (and its children's) when it runs beside other work.
 */
function benchSmoke({ root, env, log, output = process.stdout, niceness = 0 }) {
  log("benchmarks, smoke mode (each runs its whole path with tiny counts; figures are not measurements)")
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "bench", "run-all.js"), "--smoke"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", output === process.stdout ? "inherit" : "pipe"],
    })
    let last = null
    let pending = ""
    // run-all.js's verdict lines ("fault-campaign  FAILED (…): <headline with the seed>"): named again at the run's end.
    const failures = []
    // Below the integration tier's priority (nice 10, inherited by every server it starts): the
    // smokes, which nothing times, take the cycles the tier's suites leave while they wait instead of
    // slowing them (with the smokes at the same priority, a third worker made every suite slower).
    if (niceness) {
      try {
        os.setPriority(child.pid, niceness)
      } catch (error) {
        log(`benchmark smoke: could not lower its priority (${error.message}); it runs at the tier's`)
      }
    }
    child.stderr?.on("data", (chunk) => output.write(chunk))
    child.stdout.on("data", (chunk) => {
      output.write(chunk)
      pending += chunk
      const lines = pending.split("\n")
      pending = lines.pop()
      for (const line of lines) {
        const m = /^(\d+) passed, (\d+) failed$/.exec(line.trim())
        if (m) last = { passed: Number(m[1]), failed: Number(m[2]) }
        const verdict = /^(\S+)\s+(TIMED OUT|FAILED TO RUN|FAILED)\s.*?\)(?::\s*(.*))?$/.exec(line.trim())
        if (verdict) failures.push({ name: `benchmark smoke ${verdict[1]} (${verdict[2].toLowerCase()})`, why: verdict[3] ?? "" })
      }
    })
    child.on("exit", (code) => {
      const counted = { ...(last ?? { passed: 0, failed: 1 }), failures }
      // A non-zero exit with no failure counted (it died before its summary) is still a failure.
      if (code !== 0 && counted.failed === 0) counted.failed = 1
      log(`benchmark smoke: ${counted.passed} passed, ${counted.failed} failed in ${Math.round((Date.now() - started) / 1000)} s`)
      resolve(counted)
    })
  })
}

module.exports = { benchSmoke }

// jest's node environment, plus one figure per test file: the CPU-seconds it used. CI on two cores is
// CPU-bound from end to end, so a suite's wall time says little (it depends on what ran beside it)
// while its CPU-seconds are what it costs the run. Counted: the jest worker's own CPU during the file,
// and that of the child processes the file started and that ended before it did (Medusa servers,
// npm, pnpm, next build, Chromium: the kernel adds a reaped child's CPU to its parent's cutime/cstime).
// A lower bound: a process still running when the file ends, or one re-parented away from the worker
// (a daemon), is not counted, and neither is the machine's PostgreSQL working for the file.
// Written to PAYLATER_SUITE_CPU_DIR when scripts/test.js sets it; nothing otherwise.
const fs = require("node:fs")
const path = require("node:path")
const crypto = require("node:crypto")
const { TestEnvironment } = require("jest-environment-node")

// Linux's clock tick for /proc's times (USER_HZ): 100 on every kernel these machines run.
const TICKS_PER_SECOND = 100

function cpuSecondsSoFar() {
  const own = process.cpuUsage()
  let children = 0
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8")
    // Fields after "(comm) ": state is field 3, cutime 16 and cstime 17 (proc(5)).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    children = (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND
  } catch {
    // Not Linux: the worker's own CPU only.
  }
  return (own.user + own.system) / 1e6 + children
}

class CpuCountingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    this.testPath = context.testPath
    this.cpuAtStart = cpuSecondsSoFar()
  }

  async teardown() {
    await super.teardown()
    const dir = process.env.PAYLATER_SUITE_CPU_DIR
    if (!dir) return
    const cpuSeconds = cpuSecondsSoFar() - this.cpuAtStart
    const name = crypto.createHash("sha1").update(this.testPath).digest("hex").slice(0, 16)
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ testPath: this.testPath, cpuSeconds }))
  }
}

module.exports = CpuCountingEnvironment

// jest's node environment, plus one figure per test file: the CPU-seconds it used. CI on two cores is
// CPU-bound from end to end, so a suite's wall time says little (it depends on what ran beside it)
// while its CPU-seconds are what it costs the run. Counted: the jest worker's own CPU during the file,
// and that of the child processes the file started and that ended before it did (Medusa servers,
// npm, pnpm, next build, Chromium: the kernel adds a reaped child's CPU to its parent's cutime/cstime).
// Not counted: the machine's PostgreSQL working for the file, and a process re-parented away from the
// worker (a daemon). A child still running when the file ends is counted in whichever later file of
// the same worker it ends in (the suites wait for theirs).
// Written to PAYLATER_SUITE_CPU_DIR when scripts/test.js sets it; nothing otherwise.
const fs = require("node:fs")
const path = require("node:path")
const crypto = require("node:crypto")
const { TestEnvironment } = require("jest-environment-node")
const { selfCpu } = require("./proc-cpu")

function cpuSecondsSoFar() {
  const cpu = selfCpu()
  return cpu === null ? null : cpu.own + cpu.children
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
    const now = cpuSecondsSoFar()
    if (!dir || now === null || this.cpuAtStart === null) return
    const used = now - this.cpuAtStart
    const name = crypto.createHash("sha1").update(this.testPath).digest("hex").slice(0, 16)
    try {
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ testPath: this.testPath, cpuSeconds: used }))
    } catch {
      // A figure, not a test: a full disk must not fail the file that ran.
    }
  }
}

module.exports = CpuCountingEnvironment

import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * The CPU-seconds `npm test` prints per test file and `bench/run-all.js` per benchmark: read from
 * /proc/<pid>/stat (scripts/lib/proc-cpu.js) and written per file by the jest environment
 * (scripts/lib/cpu-counting-environment.js). A wrong field would print a plausible-looking wrong figure.
 */
const { procCpu, selfCpu } = require("../../scripts/lib/proc-cpu") as {
  procCpu(pid?: number | "self"): { parent: number; own: number; children: number }
  selfCpu(): { parent: number; own: number; children: number } | null
}
const CpuCountingEnvironment = require("../../scripts/lib/cpu-counting-environment") as new (
  config: unknown,
  context: unknown
) => { teardown(): Promise<void> }

/** A child process that spends about `ms` of CPU, waited for (so reaped). */
function busyChild(ms: number): void {
  const run = spawnSync(process.execPath, ["-e", `const end = process.cpuUsage().user + ${ms * 1000}; while (process.cpuUsage().user < end) {}`])
  expect(run.status).toBe(0)
}

describe("a process's CPU times from /proc", () => {
  it("names the parent and counts this process's own CPU", () => {
    const before = procCpu("self")
    expect(before.parent).toBe(process.ppid)
    expect(procCpu(process.pid).parent).toBe(process.ppid)
    const end = process.cpuUsage().user + 300_000
    while (process.cpuUsage().user < end) {
      // 0.3 s of this process's CPU
    }
    expect(procCpu("self").own - before.own).toBeGreaterThanOrEqual(0.2)
  })

  it("counts a child's CPU once it has ended and been reaped, not in this process's own", () => {
    const before = selfCpu()!
    busyChild(400)
    const after = selfCpu()!
    expect(after.children - before.children).toBeGreaterThanOrEqual(0.3)
    expect(after.own - before.own).toBeLessThan(0.3)
  })

  it("throws for a process that does not exist", () => {
    expect(() => procCpu(2 ** 22 + 1)).toThrow()
  })
})

describe("the jest environment's figure per test file", () => {
  const config = { globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, globals: {} } }
  let dir: string
  const previous = process.env.PAYLATER_SUITE_CPU_DIR
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "suite-cpu-"))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
    if (previous === undefined) delete process.env.PAYLATER_SUITE_CPU_DIR
    else process.env.PAYLATER_SUITE_CPU_DIR = previous
  })

  it("writes the file's path and the CPU-seconds spent between its start and its teardown, children included", async () => {
    process.env.PAYLATER_SUITE_CPU_DIR = dir
    const environment = new CpuCountingEnvironment(config, { testPath: "/repo/some.spec.ts", console, docblockPragmas: {} })
    busyChild(400)
    await environment.teardown()
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    const figure = JSON.parse(readFileSync(join(dir, files[0]), "utf8"))
    expect(figure.testPath).toBe("/repo/some.spec.ts")
    expect(figure.cpuSeconds).toBeGreaterThanOrEqual(0.3)
    expect(figure.cpuSeconds).toBeLessThan(30)
  })

  it("writes nothing when no folder is named (a plain jest run)", async () => {
    delete process.env.PAYLATER_SUITE_CPU_DIR
    const environment = new CpuCountingEnvironment(config, { testPath: "/repo/some.spec.ts", console, docblockPragmas: {} })
    await environment.teardown()
    expect(readdirSync(dir)).toHaveLength(0)
  })
})

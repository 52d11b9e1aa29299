import { spawnSync } from "node:child_process"
import path from "node:path"
import { resolveProviderOptions } from "../../providers/paylater/options"
import { OPTIONS } from "../../providers/paylater/__tests__/fake-api"
import { CRASH_POINTS, CRASH_POINTS_ENV, crashPoint, crashPointProblems, parseCrashPoints, resetCrashPointsForTests } from "../crash-point"

const root = path.resolve(__dirname, "..", "..", "..")

describe("crash points", () => {
  const saved = process.env[CRASH_POINTS_ENV]
  let kill: jest.SpyInstance

  beforeEach(() => {
    resetCrashPointsForTests()
    kill = jest.spyOn(process, "kill").mockImplementation(() => true)
  })
  afterEach(() => {
    kill.mockRestore()
    if (saved === undefined) delete process.env[CRASH_POINTS_ENV]
    else process.env[CRASH_POINTS_ENV] = saved
  })

  it("does nothing when the variable is unset", () => {
    delete process.env[CRASH_POINTS_ENV]
    for (const name of CRASH_POINTS) crashPoint(name)
    expect(kill).not.toHaveBeenCalled()
  })

  it("kills the process with SIGKILL at the named point only", () => {
    process.env[CRASH_POINTS_ENV] = "complete:after-order"
    crashPoint("start:after-write-ahead")
    expect(kill).not.toHaveBeenCalled()
    crashPoint("complete:after-order")
    expect(kill).toHaveBeenCalledWith(process.pid, "SIGKILL")
  })

  it("kills at the Nth hit, not before", () => {
    process.env[CRASH_POINTS_ENV] = "refund:after-sent@3, start:after-write-ahead"
    crashPoint("refund:after-sent")
    crashPoint("refund:after-sent")
    expect(kill).not.toHaveBeenCalled()
    crashPoint("refund:after-sent")
    expect(kill).toHaveBeenCalledTimes(1)
  })

  it("parses names and hit numbers, and names what it cannot read", () => {
    const plan = parseCrashPoints("settle:after-authorized@2,auto-refund:after-sent")
    expect([...plan.at.entries()]).toEqual([
      ["settle:after-authorized", 2],
      ["auto-refund:after-sent", 1],
    ])
    expect(parseCrashPoints("settle:after-authorised").problems[0]).toMatch(/"settle:after-authorised" is not one of/)
    expect(parseCrashPoints("complete:after-order@0").problems).toHaveLength(1)
  })

  it("refuses boot when armed next to live PayLater payments, whatever NODE_ENV is", () => {
    const env = { [CRASH_POINTS_ENV]: "complete:after-order" }
    expect(crashPointProblems("production", env)[0]).toMatch(/environment "production"/)
    expect(crashPointProblems("sandbox", env)).toEqual([])
    expect(crashPointProblems("production", {})).toEqual([])
    expect(crashPointProblems("sandbox", { [CRASH_POINTS_ENV]: "typo" })[0]).toMatch(/"typo" is not one of/)

    process.env[CRASH_POINTS_ENV] = "complete:after-order"
    const live = { ...OPTIONS, environment: "production", apiBaseUrl: undefined, clientSecret: "issued", webhookSecret: "issued-too" }
    expect(() => resolveProviderOptions(live, { production: false })).toThrow(/PAYLATER_CRASH_POINTS is set/)
    expect(() => resolveProviderOptions({ ...OPTIONS, environment: "sandbox" }, { production: true })).not.toThrow()
  })

  it("really kills a process: nothing after the point runs", () => {
    const script = `require("ts-node").register({ transpileOnly: true, project: ${JSON.stringify(path.join(root, "tsconfig.json"))} })
const { crashPoint } = require(${JSON.stringify(path.join(root, "src/faults/crash-point.ts"))})
process.on("exit", () => process.stdout.write("exit handler ran\\n"))
crashPoint("settle:after-authorized")
process.stdout.write("after the point\\n")`
    const run = spawnSync(process.execPath, ["-e", script], {
      env: { ...process.env, [CRASH_POINTS_ENV]: "settle:after-authorized" },
      encoding: "utf8",
      timeout: 60_000,
    })
    expect(run.signal).toBe("SIGKILL")
    expect(run.stdout).toBe("")
    expect(run.stderr).toMatch(/PAYLATER_CRASH_POINT settle:after-authorized hit 1/)
  })
})

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

  describe("armed only against the local sandbox, outside production", () => {
    const armed = { [CRASH_POINTS_ENV]: "complete:after-order" }
    const sandbox = { environment: "sandbox", apiBaseUrl: "http://127.0.0.1:4010" }
    const cases: Array<[string, { environment: string; apiBaseUrl: string }, string | undefined, RegExp | null]> = [
      ["sandbox, loopback, NODE_ENV=test", sandbox, "test", null],
      ["sandbox, loopback, NODE_ENV=development", sandbox, "development", null],
      ["sandbox, loopback, NODE_ENV=staging", sandbox, "staging", null],
      ["sandbox, loopback, NODE_ENV unset", sandbox, undefined, null],
      ["sandbox, localhost", { ...sandbox, apiBaseUrl: "http://localhost:4010" }, "test", null],
      ["sandbox, ::1", { ...sandbox, apiBaseUrl: "http://[::1]:4010" }, "test", null],
      ["sandbox, 127.0.0.2", { ...sandbox, apiBaseUrl: "http://127.0.0.2:4010" }, "test", null],
      ["sandbox, loopback, NODE_ENV=production", sandbox, "production", /NODE_ENV is "production"/],
      ["sandbox, loopback, NODE_ENV=prod", sandbox, "prod", /NODE_ENV is "prod"/],
      ["sandbox, PayLater's production host", { ...sandbox, apiBaseUrl: "https://api.paylater.qa" }, "test", /apiBaseUrl .*https:\/\/api\.paylater\.qa, not a loopback/],
      ["sandbox, a private address", { ...sandbox, apiBaseUrl: "http://10.0.0.5:4010" }, "test", /apiBaseUrl .*not a loopback/],
      ["sandbox, 0.0.0.0", { ...sandbox, apiBaseUrl: "http://0.0.0.0:4010" }, "test", /apiBaseUrl .*not a loopback/],
      ["production environment, loopback", { ...sandbox, environment: "production" }, "test", /environment is "production"/],
    ]
    it.each(cases)("%s", (_name, target, nodeEnv, refusal) => {
      const env = { ...armed, ...(nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv }) }
      const problems = crashPointProblems(target, env)
      if (!refusal) return expect(problems).toEqual([])
      expect(problems).toHaveLength(1)
      expect(problems[0]).toMatch(refusal)
      expect(problems[0]).toMatch(/PAYLATER_CRASH_POINTS is set/)
    })

    it("names every variable that is wrong at once", () => {
      const live = { environment: "production", apiBaseUrl: "https://api.paylater.qa" }
      const problems = crashPointProblems(live, { ...armed, NODE_ENV: "production" })
      expect(problems).toHaveLength(3)
      expect(problems.join("\n")).toMatch(/environment is "production"[\s\S]*apiBaseUrl[\s\S]*NODE_ENV is "production"/)
    })

    it("says nothing when the variable is unset or blank, whatever the configuration", () => {
      const live = { environment: "production", apiBaseUrl: "https://api.paylater.qa" }
      expect(crashPointProblems(live, { NODE_ENV: "production" })).toEqual([])
      expect(crashPointProblems(live, { [CRASH_POINTS_ENV]: "  ", NODE_ENV: "production" })).toEqual([])
    })

    it("still names an unknown point", () => {
      expect(crashPointProblems(sandbox, { [CRASH_POINTS_ENV]: "typo", NODE_ENV: "test" })[0]).toMatch(/"typo" is not one of/)
    })

    it("refuses the provider's options at boot (the check runs in resolveProviderOptions)", () => {
      const savedNodeEnv = process.env.NODE_ENV
      try {
        process.env[CRASH_POINTS_ENV] = "complete:after-order"
        process.env.NODE_ENV = "test"
        const live = { ...OPTIONS, environment: "production", apiBaseUrl: undefined, clientSecret: "issued", webhookSecret: "issued-too" }
        expect(() => resolveProviderOptions(live, { production: false })).toThrow(/PAYLATER_CRASH_POINTS is set.*environment is "production"/)
        // A sandbox registration at PayLater's own sandbox host: not the local sandbox.
        expect(() => resolveProviderOptions({ ...OPTIONS, environment: "sandbox", apiBaseUrl: undefined }, { production: false })).toThrow(/apiBaseUrl/)
        expect(() => resolveProviderOptions({ ...OPTIONS, environment: "sandbox" }, { production: false })).not.toThrow()
        process.env.NODE_ENV = "production"
        expect(() => resolveProviderOptions({ ...OPTIONS, environment: "sandbox" }, { production: true })).toThrow(/NODE_ENV is "production"/)
      } finally {
        process.env.NODE_ENV = savedNodeEnv
      }
    })
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

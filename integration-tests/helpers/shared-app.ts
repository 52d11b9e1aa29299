/**
 * `describeOnOneApp(options, suites)`: several suites on ONE booted app. A Medusa boot (module
 * loading, the app's start, the database copy) is most of a small spec file's time; suites that
 * boot the same app (same medusa-config.ts, same environment, the same sandbox) share one boot
 * instead, each as its own `describe`, in one spec file under one `integrationTestRunner`:
 *
 *   const paylater = useSandbox()                      // the group's sandbox, top level
 *   integrationTestRunner({
 *     testSuite: (options) => describeOnOneApp(options, { "store smoke": storeSmoke, ... }, paylater),
 *   })
 *
 * (arguments after the suites are passed to every suite after the runner's options).
 *
 * A suite is the body its own spec file gave `testSuite` (it registers its hooks and tests), and it
 * starts where it would in a file of its own: each suite's `beforeAll` runs on the database as the
 * app booted it (not on what the suite before it left), and its tests start from what its own
 * `beforeAll` hooks made, restored before each test as the runner does for a single suite. What a
 * shared app cannot give back is in-process state (except the group's sandbox's webhook target,
 * which each suite starts without): a suite that needs an environment of its own at
 * boot, or that changes the app's configuration, keeps a file (and a boot) of its own.
 */
import type { IntegrationTestRunnerOptions } from "./runner"
import type { SandboxHandle } from "./sandbox"

function isSandboxHandle(value: unknown): value is SandboxHandle {
  return typeof value === "function" && typeof (value as Partial<SandboxHandle>).forgetWebhooks === "function"
}

/** What `integrationTestRunner` gives its `testSuite`. */
export type SuiteOptions = Parameters<IntegrationTestRunnerOptions["testSuite"]>[0]
export type Suite<A extends unknown[]> = (options: SuiteOptions, ...args: A) => void

export function describeOnOneApp<A extends unknown[]>(options: SuiteOptions, suites: Record<string, Suite<A>>, ...args: A): void {
  const { dbUtils, dbConfig } = options
  // The database as the app booted it, before any suite's set-up.
  const booted = `${dbConfig.dbName}_booted`
  beforeAll(() => dbUtils.snapshot({ templateName: booted }))
  // The runner's dbUtils has dropTemplate (it drops its own template with it); its type omits it.
  afterAll(() => (dbUtils as unknown as { dropTemplate(name: string): Promise<void> }).dropTemplate(booted))

  for (const [title, suite] of Object.entries(suites)) {
    describe(title, () => {
      // First of this suite's hooks: start from the booted database, and with the group's sandbox
      // sending webhooks nowhere, as in a file of its own (a suite that wants them points them; one
      // suite's target once leaked into the next and notified it of payments it built by hand).
      beforeAll(() => {
        for (const arg of args) if (isSandboxHandle(arg)) arg.forgetWebhooks()
        return dbUtils.restore({ templateName: booted })
      })
      suite(options, ...args)
      // Last of them: the runner restores this (the suite's own set-up) before each of its tests.
      beforeAll(() => dbUtils.snapshot())
    })
  }
}

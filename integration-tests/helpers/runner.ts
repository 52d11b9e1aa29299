/**
 * `integrationTestRunner(options)`: Medusa's `medusaIntegrationTestRunner`, same options, same
 * `testSuite` arguments, but the suite's database starts as a copy of the run's migrated template
 * (scripts/lib/template-db.js) instead of an empty one that every suite migrates again.
 *
 * How: the runner creates its database with "create unless it exists" and then runs its migration
 * pass, which finds a copy of a migrated database up to date. So this names the database
 * (`dbName`) and copies the template into it from a top-level `beforeAll`, which jest runs before
 * the runner's own `beforeAll`. The runner still drops it at the end. Call it at the TOP LEVEL of a
 * spec file, as `medusaIntegrationTestRunner`.
 *
 * Without PAYLATER_TEST_TEMPLATE_DB (jest run without scripts/test.js), or with a `dbName` of the
 * spec's own, the database is the runner's own as before.
 *
 * It also shortens the webhook queue's delay for the app it boots (`PAYLATER_WEBHOOK_DELAY_MS`,
 * TEST_WEBHOOK_DELAY_MS below, unless the spec or the shell set it first, e.g. with
 * `useEnv({ PAYLATER_WEBHOOK_DELAY_MS: "5000" })` above the runner): every webhook a spec waits for
 * otherwise costs the 5 s a store gives the shopper's return as a head start. Only the in-process
 * app reads it; servers a spec starts itself keep their defaults.
 */
import { randomBytes } from "node:crypto"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { releaseAbandonedCompletions } from "./abandoned-runs"
import { connectionTo, installRowRestore, quote } from "./row-restore"

// Before every test, the rows put back in place of a dropped and copied database (row-restore.ts).
installRowRestore(require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template"))

export type IntegrationTestRunnerOptions = Parameters<typeof medusaIntegrationTestRunner>[0]

const TEMPLATE_ENV = "PAYLATER_TEST_TEMPLATE_DB"

/** The variable medusa-config.ts turns into the webhook settlement delay option (ms). */
export const WEBHOOK_DELAY_ENV = "PAYLATER_WEBHOOK_DELAY_MS"
/** Long enough that a return and its webhook still arrive in either order; short enough to not wait. */
export const TEST_WEBHOOK_DELAY_MS = "200"

/** `CREATE DATABASE name TEMPLATE template`, retried while another copy briefly holds the template. */
export async function copyTemplate(template: string, name: string): Promise<void> {
  const client = connectionTo("postgres")
  await client.connect()
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`)
        return
      } catch (error) {
        const busy = /being accessed by other users/.test(String((error as Error).message))
        if (!busy || attempt >= 20) throw error
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  } finally {
    await client.end()
  }
}

/** Sets the test webhook delay for this file's app unless already set; puts the old value back. */
function useShortWebhookDelay(): void {
  let setHere = false
  beforeAll(() => {
    if (process.env[WEBHOOK_DELAY_ENV] !== undefined) return
    process.env[WEBHOOK_DELAY_ENV] = TEST_WEBHOOK_DELAY_MS
    setHere = true
  })
  afterAll(() => {
    if (setHere) delete process.env[WEBHOOK_DELAY_ENV]
  })
}

export function integrationTestRunner(options: IntegrationTestRunnerOptions) {
  useShortWebhookDelay()
  // In a block of its own: jest runs an inner block's afterEach before the runner's, which waits
  // for every workflow run to end (abandoned-runs.ts).
  const testSuite: IntegrationTestRunnerOptions["testSuite"] = (suiteOptions) =>
    describe("", () => {
      afterEach(() => releaseAbandonedCompletions(suiteOptions.getContainer()))
      options.testSuite(suiteOptions)
    })
  const template = process.env[TEMPLATE_ENV]
  if (!template || options.dbName) return medusaIntegrationTestRunner({ ...options, testSuite })
  const dbName = `paylater-${randomBytes(6).toString("hex")}-integration-${process.env.JEST_WORKER_ID ?? "1"}`
  beforeAll(() => copyTemplate(template, dbName))
  return medusaIntegrationTestRunner({ ...options, testSuite, dbName })
}

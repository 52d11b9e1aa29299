/**
 * Time passing for the store's background work, seen from outside: the store's scheduled jobs
 * (reconciliation, then the recovery of payments without an order) run as the scheduler runs them,
 * at a moment later than now on the store's clock. The sandbox's clock is moved by the spec itself
 * (`paylater().advanceClock`), because PayLater's refund window is counted on PayLater's side.
 *
 * One place on purpose: whatever the ledger makes of the jobs, a spec only says "the jobs ran at
 * +N minutes". Integration tests boot with PAYLATER_RECONCILE_SCHEDULE=off (integration-tests/setup.js)
 * so that nothing runs behind a test's back; the jobs' work is called here directly (run-jobs.ts),
 * as the scheduler's job functions call it, without starting their schedule watchdog in the test process.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { atStoreTime } from "../../helpers/store-clock"
import { runReconciliation, runRecovery } from "../../../src/job-runs/run-jobs"

export const MINUTE = 60_000

/**
 * Runs both scheduled PayLater jobs `times` times at once (as several servers would), `minutesLater`
 * minutes from now on the store's clock. The clock is shifted once around all of them.
 */
export async function runScheduledJobs(container: MedusaContainer, minutesLater = 0, times = 1): Promise<void> {
  const runs = () =>
    Promise.all(
      Array.from({ length: times }, async () => {
        await runReconciliation(container, "schedule")
        await runRecovery(container)
      })
    )
  await (minutesLater ? atStoreTime(minutesLater * MINUTE, runs) : runs())
}

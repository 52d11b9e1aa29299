/**
 * Time passing for the store's background work, seen from outside: the store's scheduled jobs
 * (reconciliation, then the recovery of payments without an order) run as the scheduler runs them,
 * at a moment later than now on the store's clock. The sandbox's clock is moved by the spec itself
 * (`paylater().advanceClock`), because PayLater's refund window is counted on PayLater's side.
 *
 * One place on purpose: whatever the ledger makes of the jobs, a spec only says "the jobs ran at
 * +N minutes". Integration tests boot with PAYLATER_RECONCILE_SCHEDULE=off (integration-tests/setup.js)
 * so that nothing runs behind a test's back; the jobs return at once while it is off, so it is
 * switched on for the duration of the call, exactly as a store with the default schedule runs them.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { atStoreTime } from "../../helpers/store-clock"
import payLaterReconcileJob from "../../../src/jobs/paylater-reconcile"
import payLaterRecoverPaymentsJob from "../../../src/jobs/paylater-recover-payments"

export const MINUTE = 60_000

let enabled = 0
let savedSchedule: string | undefined

/** The schedule switched on while any job call of the test runs (calls may overlap). */
async function withJobsEnabled<T>(run: () => Promise<T>): Promise<T> {
  if (enabled++ === 0) {
    savedSchedule = process.env.PAYLATER_RECONCILE_SCHEDULE
    process.env.PAYLATER_RECONCILE_SCHEDULE = "*/2 * * * *"
  }
  try {
    return await run()
  } finally {
    if (--enabled === 0) {
      if (savedSchedule === undefined) delete process.env.PAYLATER_RECONCILE_SCHEDULE
      else process.env.PAYLATER_RECONCILE_SCHEDULE = savedSchedule
    }
  }
}

/**
 * Runs both scheduled PayLater jobs `times` times at once (as several servers would), `minutesLater`
 * minutes from now on the store's clock. The clock is shifted once around all of them.
 */
export async function runScheduledJobs(container: MedusaContainer, minutesLater = 0, times = 1): Promise<void> {
  const runs = () =>
    withJobsEnabled(() =>
      Promise.all(
        Array.from({ length: times }, async () => {
          await payLaterReconcileJob(container)
          await payLaterRecoverPaymentsJob(container)
        })
      )
    )
  await (minutesLater ? atStoreTime(minutesLater * MINUTE, runs) : runs())
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcileSchedule } from "../reconciliation/schedule"
import { runBothJobs, runRecovery } from "../job-runs/run-jobs"
import { watchSchedule } from "../reconciliation/schedule-watchdog"

/**
 * Refunds payments PayLater took without an order once PayLater's refund window opens (default
 * policy; `paidWithoutOrder: "hold"` lists them for a person instead), and lists refunds whose
 * process died before PayLater answered. On the reconciliation job's schedule
 * (PAYLATER_RECONCILE_SCHEDULE, "off" disables both).
 */
export default async function payLaterRecoverPaymentsJob(container: MedusaContainer): Promise<void> {
  if (reconcileSchedule().disabled) {
    return
  }
  watchSchedule(container, () => runBothJobs(container))
  await runRecovery(container)
}

export const config = {
  name: "paylater-recover-payments",
  schedule: reconcileSchedule().cron,
}

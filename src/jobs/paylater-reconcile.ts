import type { MedusaContainer } from "@medusajs/framework/types"
import { logger as bootLogger } from "@medusajs/framework/logger"
import { describeReconcileSchedule, reconcileSchedule } from "../reconciliation/schedule"
import { runBothJobs, runReconciliation } from "../job-runs/run-jobs"
import { watchSchedule } from "../reconciliation/schedule-watchdog"

/**
 * Reconciles PayLater payments no webhook settled (lost, late, or refused notifications), every
 * PAYLATER_RECONCILE_SCHEDULE (default every 2 minutes; "off" disables it). All the work is in the
 * paylater-reconcile workflow. With several Medusa instances, run it where jobs run (worker or shared
 * mode) and use the Redis locking module so that one run at a time covers the whole store.
 */
export default async function payLaterReconcileJob(container: MedusaContainer): Promise<void> {
  if (reconcileSchedule().disabled) {
    return
  }
  // A process that runs jobs keeps watch over their schedule from its first run on.
  watchSchedule(container, () => runBothJobs(container))
  await runReconciliation(container, "schedule")
}

const schedule = reconcileSchedule()

// Medusa loads this file once per process that runs jobs: one line at boot says the job is there.
bootLogger.info(describeReconcileSchedule(schedule))

export const config = {
  name: "paylater-reconcile",
  schedule: schedule.cron,
}

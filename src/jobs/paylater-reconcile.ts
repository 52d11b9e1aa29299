import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logger as bootLogger } from "@medusajs/framework/logger"
import { recordReconcileRun } from "../modules/paylater-ledger/reconcile-runs"
import { describeReconcileSchedule, reconcileSchedule } from "../reconciliation/schedule"
import { payLaterReconcileWorkflow } from "../workflows/paylater-reconcile/workflow"

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
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const startedAt = new Date()
  const { result } = await payLaterReconcileWorkflow(container)
    .run({ input: {} })
    .catch(async (error: unknown) => {
      await recordReconcileRun(container, startedAt, { error })
      throw error
    })
  await recordReconcileRun(container, startedAt, { result })
  if (!result.ran || !result.results.length) {
    return
  }
  const counts = result.results.reduce<Record<string, number>>((acc, r) => {
    acc[r.outcome] = (acc[r.outcome] ?? 0) + 1
    return acc
  }, {})
  const summary = Object.entries(counts)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(", ")
  logger.info(
    `PayLater reconciliation: checked ${result.results.length} of ${result.eligible} (${summary})${result.deferred ? `; ${result.deferred} left for the next run` : ""}${result.stopped ? `; stopped early: ${result.stopped}` : ""}`
  )
}

const schedule = reconcileSchedule()

// Medusa loads this file once per process that runs jobs: one line at boot says the job is there.
bootLogger.info(describeReconcileSchedule(schedule))

export const config = {
  name: "paylater-reconcile",
  schedule: schedule.cron,
}

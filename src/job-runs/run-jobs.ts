import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { recordReconcileRun, type ReconcileRunTrigger } from "../modules/paylater-ledger/reconcile-runs"
import { payLaterReconcileWorkflow } from "../workflows/paylater-reconcile/workflow"
import { runPaidWithoutOrderRefunds } from "../paid-without-order/auto-refund"
import { sweepAbandonedRefunds } from "../reconciliation/abandoned-refunds"
import { listUnsentRefunds } from "../reconciliation/unsent-refunds"
import { redecideOpenItems } from "../paid-without-order/current-items"
import { convergeGivenBackMoney } from "../reconciliation/given-back-money"
import { undoLeftoverOrders } from "../reconciliation/leftover-orders"
import { notifyMerchant } from "../notifications/sweep"

/**
 * The work of the two scheduled jobs, callable by Medusa's scheduler (src/jobs), by the watchdog that
 * stands in for a stopped schedule (reconciliation/schedule-watchdog.ts, handed `runBothJobs` by the
 * jobs) and by tests, which must not start the watch. Its own folder above the ones it runs (the
 * reconciliation workflow, the refunds, the notifications), which import nothing from here.
 */

/** One reconciliation run (the paylater-reconcile workflow), recorded for Settings → PayLater. */
export async function runReconciliation(container: MedusaContainer, trigger: ReconcileRunTrigger): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const startedAt = new Date()
  const { result } = await payLaterReconcileWorkflow(container)
    .run({ input: {} })
    .catch(async (error: unknown) => {
      await recordReconcileRun(container, startedAt, { error }, trigger)
      throw error
    })
  await recordReconcileRun(container, startedAt, { result }, trigger)
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

/**
 * Refunds whose process died before PayLater answered are listed; open items are decided again;
 * orders a dead completion left with no money anywhere have its rollback finished;
 * paid-without-order refunds are sent when due; the merchant is told what needs a person (src/notifications).
 */
export async function runRecovery(container: MedusaContainer): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const abandoned = await sweepAbandonedRefunds(container)
  if (abandoned.length) {
    logger.warn(`PayLater: ${abandoned.length} refund(s) whose process stopped before PayLater answered are listed on Settings → PayLater (outcome unknown)`)
  }
  const unsent = await listUnsentRefunds(container)
  if (unsent.length) {
    logger.error(
      `PayLater: ${unsent.length} refund(s) Medusa recorded were never sent to PayLater (${unsent.map((u) => `${u.refund_id} ${u.amount} QAR`).join(", ")}); listed on Settings → PayLater`
    )
  }
  const closed = await redecideOpenItems(container)
  if (closed) {
    logger.info(`PayLater recovery: ${closed} item(s) on Settings → PayLater closed (an order holds the payment, or it was refunded in full)`)
  }
  const retired = await convergeGivenBackMoney(container)
  if (retired) {
    logger.warn(`PayLater recovery: ${retired} payment(s) PayLater gave back still usable in Medusa (a session a completion could take, or an uncaptured payment); canceled`)
  }
  // Each undone order is logged by the undo itself (medusa-effects/unplaced-order.ts); a failure
  // leaves them to the next run and does not hold up the refunds and notifications below.
  await undoLeftoverOrders(container).catch((error: unknown) =>
    logger.warn(`PayLater recovery: orders a dead completion left were not looked at (tried again next run): ${(error as Error)?.message ?? error}`)
  )
  const results = await runPaidWithoutOrderRefunds(container)
  const done = results.filter((r) => r.outcome !== "skipped")
  if (done.length) {
    logger.info(`PayLater recovery: ${done.map((r) => `${r.id} ${r.outcome}`).join(", ")}`)
  }
  // Last, after the items are decided again: the merchant is told what still needs a person.
  await notifyMerchant(container).catch((error: unknown) =>
    logger.warn(`PayLater notifications: the sweep failed and runs again next time: ${(error as Error)?.message ?? error}`)
  )
}

/** Both jobs' work, one after the other, each failure logged: what the watchdog runs while it stands in. */
export async function runBothJobs(container: MedusaContainer): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  await runReconciliation(container, "watchdog").catch((e: unknown) => logger.warn(`PayLater watchdog: reconciliation failed: ${(e as Error)?.message ?? e}`))
  await runRecovery(container).catch((e: unknown) => logger.warn(`PayLater watchdog: recovery failed: ${(e as Error)?.message ?? e}`))
}

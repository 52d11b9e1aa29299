import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { runPaidWithoutOrderRefunds } from "../paid-without-order/auto-refund"
import { reconcileSchedule } from "../reconciliation/schedule"
import { sweepAbandonedRefunds } from "../reconciliation/abandoned-refunds"

/**
 * Refunds payments PayLater took without an order once PayLater's refund window opens (default
 * policy; `paidWithoutOrder: "hold"` lists them for a person instead). On the reconciliation job's
 * schedule (PAYLATER_RECONCILE_SCHEDULE, "off" disables both).
 */
export default async function payLaterRecoverPaymentsJob(container: MedusaContainer): Promise<void> {
  if (reconcileSchedule().disabled) {
    return
  }
  const abandoned = await sweepAbandonedRefunds(container)
  if (abandoned.length) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: ${abandoned.length} refund(s) whose process stopped before PayLater answered are listed on Settings → PayLater (outcome unknown)`)
  }
  const results = await runPaidWithoutOrderRefunds(container)
  const done = results.filter((r) => r.outcome !== "skipped")
  if (done.length) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`PayLater recovery: ${done.map((r) => `${r.id} ${r.outcome}`).join(", ")}`)
  }
}

export const config = {
  name: "paylater-recover-payments",
  schedule: reconcileSchedule().cron,
}

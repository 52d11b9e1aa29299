import { AsyncLocalStorage } from "node:async_hooks"
import { processSingleton } from "../../process-wide/process-slot"
import { MONEY_PLAN_REFUND_SLOT } from "../../process-wide/slot-keys"

/**
 * Which road asked the provider for a refund. Money no order holds goes back only by the money
 * plan's roads (Settings → PayLater's Refund, the automatic refund): they run their Medusa refund
 * inside `asMoneyPlanRefund`. Any other Medusa refund of such money is refused by the provider: the
 * one that happens is Medusa's rollback of a failed cart completion (its compensation refunds a
 * captured payment), which would otherwise send a held payment back behind the merchant's
 * `paidWithoutOrder: "hold"` and around the list. Process-wide: the roads and the provider may come
 * from two copies of this package (src/process-wide/process-slot.ts).
 */
const storage = processSingleton(MONEY_PLAN_REFUND_SLOT, () => new AsyncLocalStorage<true>())

export function asMoneyPlanRefund<T>(run: () => T): T {
  return storage.run(true, run)
}

export function isMoneyPlanRefund(): boolean {
  return storage.getStore() === true
}

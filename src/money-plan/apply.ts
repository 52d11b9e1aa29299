import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { planMoney, type MoneyPlan } from "../modules/paylater-ledger/money-plan"
import { applyListStep } from "../modules/paylater-ledger/list-step"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { CartBusyError, underCartMoneyLocks } from "./cart-locks"
import { dedupeKeyOf } from "../modules/paylater-ledger/types"
import { moneyFactsOf } from "./facts"
import { retirePayment, retireSession } from "../medusa-effects/retire-session"

/**
 * The one executor of the money plan (modules/paylater-ledger/money-plan.ts), both sides: the
 * list's (applyListStep, modules/paylater-ledger/list-step.ts) and Medusa's (applyMoneyPlan: reads the facts, decides, and makes
 * Medusa's records match). The caller holds the money's locks (the session's
 * settlement lock and the cart lock, money-plan/cart-locks.ts), as the refunds do when they
 * call it right after PayLater accepted a refund; `convergeMoney` takes them itself. Idempotent:
 * a second run finds Medusa's record already right and does nothing.
 */
export async function applyMoneyPlan(container: MedusaContainer, paylaterOrderId: string, now: Date = new Date()): Promise<MoneyPlan | null> {
  const ledger = ledgerModuleOf(container)
  const row = ledger ? await ledger.findAttempt(paylaterOrderId) : null
  if (!ledger || !row) return null
  const plan = planMoney(await moneyFactsOf(container, ledger, row, now))
  if (plan.retire_session) await retireSession(container, plan.retire_session)
  if (plan.cancel_payment) await retirePayment(container, plan.cancel_payment)
  const changed = [
    plan.retire_session ? `Medusa's session ${logRef(plan.retire_session)}` : null,
    plan.cancel_payment ? `Medusa's payment ${plan.cancel_payment}` : null,
  ].filter(Boolean)
  if (changed.length) {
    container.resolve(ContainerRegistrationKeys.LOGGER).info(`PayLater: ${logRef(paylaterOrderId)}: ${plan.why} ${changed.join(" and ")} canceled.`)
  }
  return plan
}

/**
 * The whole plan, both records, under the money's locks, for a caller that holds none (the recovery
 * job, Medusa's own refund of a PayLater payment): Medusa's side (applyMoneyPlan), then the list's
 * (applyListStep on the attempt's open item: held money or money given back in full leaves the list).
 */
export async function convergeMoney(container: MedusaContainer, paylaterOrderId: string): Promise<MoneyPlan | null> {
  const ledger = ledgerModuleOf(container)
  const row = await ledger?.findAttempt(paylaterOrderId)
  if (!ledger || !row) return null
  return underCartMoneyLocks(container, { session_id: row.session_id, cart_id: row.cart_id }, async () => {
    const plan = await applyMoneyPlan(container, paylaterOrderId)
    // Only a closing step changes the list: refundable, wait and none need no read of it.
    if (plan && (plan.list.step === "close_held" || plan.list.step === "close_refunded")) {
      const [item] = (await ledger.listPayLaterAttentions(
        { dedupe_key: dedupeKeyOf(paylaterOrderId), status: "open" },
        { take: 1 }
      )) as unknown as AttentionRecord[]
      if (item) await applyListStep(ledger, { ...item, paylater_order_id: paylaterOrderId }, plan.list)
    }
    return plan
  })
}

/**
 * The plan applied right after a refund PayLater accepted, by the road that sent it (holding the
 * money's locks). A failure here must not lose the refund's own record or stop the caller's run:
 * it is logged, and the recovery job converges Medusa's records later (reconciliation/given-back-money.ts).
 */
export async function applyMoneyPlanAfterRefund(container: MedusaContainer, paylaterOrderId: string, now: Date = new Date()): Promise<void> {
  await applyMoneyPlan(container, paylaterOrderId, now).catch((error: unknown) => leftToRecovery(container, paylaterOrderId, error))
}

/**
 * convergeMoney for a road with nothing to answer for it (a subscriber, a booking already made, the
 * recovery job itself): a busy cart (being completed or refunded now) or a failure is left to the
 * recovery job's next run (reconciliation/given-back-money.ts), logged when it is a failure.
 */
export async function convergeMoneyOrLeaveToRecovery(container: MedusaContainer, paylaterOrderId: string): Promise<MoneyPlan | null> {
  return convergeMoney(container, paylaterOrderId).catch((error: unknown) => {
    if (!(error instanceof CartBusyError)) leftToRecovery(container, paylaterOrderId, error)
    return null
  })
}

/** The one line a road writes when it leaves Medusa's records to the recovery job. */
function leftToRecovery(container: MedusaContainer, paylaterOrderId: string, error: unknown): void {
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .warn(`PayLater: Medusa's records of ${logRef(paylaterOrderId)} were not brought in line with its money (the recovery job tries again): ${(error as Error)?.message}`)
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { planMoney, refundedInFullNote, type ListStep, type MoneyPlan } from "../modules/paylater-ledger/money-plan"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { underCartMoneyLocks } from "./cart-locks"
import { moneyFactsOf } from "./facts"
import { retirePayment, retireSession } from "../medusa-effects/retire-session"

/**
 * The one executor of the money plan (modules/paylater-ledger/money-plan.ts), both sides: the
 * list's (applyListStep, below) and Medusa's (applyMoneyPlan: reads the facts, decides, and makes
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

/** The plan applied under the money's locks, for a caller that holds none (the recovery job). */
export async function convergeMoney(container: MedusaContainer, paylaterOrderId: string): Promise<MoneyPlan | null> {
  const row = await ledgerModuleOf(container)?.findAttempt(paylaterOrderId)
  if (!row) return null
  return underCartMoneyLocks(container, { session_id: row.session_id, cart_id: row.cart_id }, () => applyMoneyPlan(container, paylaterOrderId))
}

/**
 * The plan applied right after a refund PayLater accepted, by the road that sent it (holding the
 * money's locks). A failure here must not lose the refund's own record or stop the caller's run:
 * it is logged, and the recovery job converges Medusa's records later (reconciliation/given-back-money.ts).
 */
export async function applyMoneyPlanAfterRefund(container: MedusaContainer, paylaterOrderId: string, now: Date = new Date()): Promise<void> {
  await applyMoneyPlan(container, paylaterOrderId, now).catch((error: unknown) =>
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: Medusa's records of ${logRef(paylaterOrderId)} were not brought in line after its refund (the recovery job tries again): ${(error as Error)?.message}`)
  )
}

/**
 * The plan's list step applied to Settings → PayLater's list (the ledger's side of the executor):
 * `close_held` closes every open item about the attempt's money with the step's note (nothing
 * refunded), `close_refunded` resolves the item as refunded; the other steps leave the list as it
 * is. Idempotent: closing a closed item changes nothing.
 */
export async function applyListStep(
  ledger: Pick<PayLaterLedgerModuleService, "closeAttentionOfAttempt" | "resolveAttention">,
  item: Pick<AttentionRecord, "id" | "amount" | "status"> & { paylater_order_id: string },
  step: ListStep
): Promise<void> {
  if (step.step === "close_held") await ledger.closeAttentionOfAttempt(item.paylater_order_id, step.note)
  if (step.step === "close_refunded" && item.status === "open") {
    await ledger.resolveAttention(item.id, { resolution: "refunded", note: refundedInFullNote(item.amount) })
  }
}


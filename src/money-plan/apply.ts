import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { planMoney, type MoneyPlan } from "../modules/paylater-ledger/money-plan"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { underCartMoneyLocks } from "./cart-locks"
import { moneyFactsOf } from "./facts"
import { retireSession } from "../medusa-effects/retire-session"

/**
 * The one executor of the money plan (modules/paylater-ledger/money-plan.ts): reads the facts,
 * decides, and makes Medusa's records match. The caller holds the money's locks (the session's
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
  if (plan.retire_session) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`PayLater: ${logRef(paylaterOrderId)}: ${plan.why} Medusa's session ${logRef(plan.retire_session)} is canceled.`)
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

import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { convergeMoneyOrLeaveToRecovery } from "../money-plan/apply"

/** How far back refunds are looked at, and how many a run converges at most (newest first). */
const LOOK_BACK_MS = 30 * 24 * 60 * 60_000
const MAX_PER_RUN = 200

/**
 * Medusa's records checked against the ledger from the refunds' side: every PayLater order with a
 * refund sent (accepted, or whose answer is unknown) in the look-back has its money plan applied
 * again, so a session a refund left usable (the process died between PayLater's answer and the
 * executor, or the refund went by a road that does not apply the plan) is retired, and an
 * uncaptured payment of it canceled. Idempotent: a record already right is left alone. Returns how
 * many attempts had a Medusa record changed.
 */
export async function convergeGivenBackMoney(container: MedusaContainer, now: Date = new Date()): Promise<number> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return 0
  const refunds = (await ledger.listPayLaterRefundAttempts(
    { status: ["succeeded", "pending", "unknown"], sent_at: { $gte: new Date(now.getTime() - LOOK_BACK_MS) } } as never,
    { select: ["paylater_order_id"], order: { sent_at: "DESC" }, take: MAX_PER_RUN }
  )) as Array<{ paylater_order_id: string }>
  let retired = 0
  for (const paylaterOrderId of new Set(refunds.map((r) => r.paylater_order_id))) {
    const plan = await convergeMoneyOrLeaveToRecovery(container, paylaterOrderId)
    if (plan?.retire_session || plan?.cancel_payment) retired++
  }
  return retired
}

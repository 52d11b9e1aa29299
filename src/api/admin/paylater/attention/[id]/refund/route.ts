import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { sendRefund } from "../../../../../../paid-without-order/auto-refund"
import { notRefundableMessage, whyNotRefundable } from "../../../../../../paid-without-order/item-registration"
import { requireLedgerModule, attentionItem, canRefund, loadAttention } from "../../attention"
import { CartBusyError, underCartMoneyLocks } from "../../../../../../money-plan/cart-locks"
import { planMoney } from "../../../../../../modules/paylater-ledger/money-plan"
import { moneyFactsOf } from "../../../../../../money-plan/facts"
import { ownerSentence } from "../../../../../../modules/paylater-ledger/whose-money"
import type { AttentionRecord } from "../../../../../../modules/paylater-ledger/types"
import { applyMoneyPlanAfterRefund } from "../../../../../../money-plan/apply"
import { applyListStep } from "../../../../../../modules/paylater-ledger/list-step"
import { attemptsOfPayment } from "../../../../../../medusa-records/payment-attempt"

/** Items about money no order holds: the owner decision applies. */
const MONEY_KINDS = ["paid_without_order", "orphaned"]

/** A refusal answered as 409 with its own message (Medusa's error handler replaces a CONFLICT's text with a generic one). */
class RefundRefused extends Error {}

/**
 * The money plan's list step, decided again now under the cart's locks: money an order holds (or
 * may hold: an order placed this minute) is never refunded from the list, nor money PayLater
 * already gave back in full.
 */
async function refusalFor(container: MedusaContainer, item: AttentionRecord): Promise<string | null> {
  const ledger = requireLedgerModule(container)
  // An item naming its Medusa payment but no attempt: the payment's own attempt decides.
  const key = MONEY_KINDS.includes(item.kind) ? (item.paylater_order_id ?? (item.payment_id ? (await attemptsOfPayment(container, item.payment_id))[0] : null)) : null
  const row = key ? await ledger.findAttempt(key) : null
  if (!row && item.payment_id) {
    // The refund goes through the payment module, which books it on no order: only for money the plan says no order holds.
    return "No PayLater payment on record matches this item, so whose money it is cannot be told; nothing was refunded. Check the order and PayLater's merchant portal, then mark it resolved."
  }
  const facts = row ? await moneyFactsOf(container, ledger, row, new Date()) : null
  const step = facts ? planMoney(facts).list : null
  if (step?.step === "close_held") {
    await applyListStep(ledger, { ...item, paylater_order_id: row!.paylater_order_id }, step)
    return `${ownerSentence(facts!.owner)} It is the order's money and is not refunded from this list; refund it from the order if the shopper should get it back.`
  }
  if (item.status !== "open") return `This item was already resolved (${item.resolution}); nothing was refunded. Reload Settings → PayLater.`
  if (step?.step === "close_refunded") {
    await applyListStep(ledger, { ...item, paylater_order_id: row!.paylater_order_id }, step)
    return "PayLater has refunded this payment in full already; nothing more was refunded."
  }
  if (step?.step === "wait" || step?.step === "none") return `${ownerSentence(facts!.owner)} Nothing was refunded; try again in a few minutes.`
  return null
}

/**
 * POST /admin/paylater/attention/:id/refund { amount? }: refunds the item's payment through Medusa's
 * payment module (so the refund guard applies and Medusa's payment shows the refund, while no order
 * counts it), the whole remaining amount by default, then applies the money plan and marks the item
 * resolved as refunded. Decided again at the moment of acting, under the cart's locks: 409 when an
 * order holds the payment or the item is closed.
 */
export async function POST(req: AuthenticatedMedusaRequest<{ amount?: unknown }>, res: MedusaResponse): Promise<void> {
  const body = (req.body ?? {}) as { amount?: unknown }
  const listed = await attentionItem(req.scope, req.params.id)
  if (listed.kind === "refund_outcome_unknown") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "First record whether PayLater refunded the earlier refund (check the PayLater merchant portal)."
    )
  }
  if (!canRefund(listed)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This PayLater payment has no Medusa payment to refund from: refund it in the PayLater merchant portal, then mark it resolved."
    )
  }
  // Only at the PayLater account of the registration that took it; none configured: refused.
  const unrouted = await whyNotRefundable(req.scope, requireLedgerModule(req.scope), listed)
  if (unrouted) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, notRefundableMessage(unrouted))
  }
  const amount = body.amount
  if (amount !== undefined && !(typeof amount === "string" && /^\d{1,9}(\.\d{1,2})?$/.test(amount))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'amount must be QAR text with at most two decimals, e.g. "120.00".')
  }
  const actorId = req.auth_context?.actor_id ?? undefined
  const resolved = await underCartMoneyLocks(req.scope, listed, async () => {
    const item = await attentionItem(req.scope, req.params.id)
    const refusal = await refusalFor(req.scope, item)
    if (refusal) throw new RefundRefused(refusal)
    const input = { payment_id: item.payment_id as string, amount: amount as string | undefined, created_by: actorId }
    if (!item.payment_id) {
      // No Medusa payment holds this money: straight to PayLater, under the refund guard.
      await sendRefund(req.scope, requireLedgerModule(req.scope), item, amount as string | undefined)
    } else {
      // Through the payment module, never Medusa's refund workflow: that one books the refund on the
      // collection's order (a negative transaction and a credit line), and this money is no order's:
      // the list refunds only money the plan says no order holds (extra beside an order, or none).
      await req.scope.resolve(Modules.PAYMENT).refundPayment({ ...input, note: "PayLater: money no order holds, refunded from Settings → PayLater" })
    }
    // Medusa's records follow: money (even part of it) that went back is no completion's any more.
    if (item.paylater_order_id) await applyMoneyPlanAfterRefund(req.scope, item.paylater_order_id)
    return requireLedgerModule(req.scope).resolveAttention(item.id, {
      resolution: "refunded",
      note: `Refunded ${amount ? `${amount} QAR` : "in full"} from Settings → PayLater`,
      actor_id: actorId ?? null,
    })
  }).catch((error: unknown) => {
    if (error instanceof CartBusyError) {
      return new RefundRefused("The cart of this payment is being completed or refunded right now; nothing was refunded. Try again in a moment.")
    }
    if (error instanceof RefundRefused) return error
    throw error
  })
  if (resolved instanceof RefundRefused) {
    res.status(409).json({ type: "conflict", message: resolved.message })
    return
  }
  res.json({ attention: await loadAttention(req.scope, resolved) })
}

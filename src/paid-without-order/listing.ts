import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { storedAmountText } from "../providers/paylater/money"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import type { PaidWithoutOrderPolicy } from "../providers/paylater/options"
import { configuredRegistrations, registrationIdOf } from "../medusa-records/registrations"
import { ownersOf } from "../medusa-records/owners"
import { planMoney } from "../modules/paylater-ledger/money-plan"
import { moneyFactsOf } from "../money-plan/facts"
import { applyListStep } from "../modules/paylater-ledger/list-step"
import { ownerSentence, paymentIsForAttempt } from "../modules/paylater-ledger/whose-money"
import { attemptOfPayment, recordedPaymentOf } from "../medusa-records/payment-attempt"
import { planColumns, planFor, type AutoRefund } from "../money-plan/refund-plan"
import { dedupeKeyOf } from "../modules/paylater-ledger/types"

/**
 * Money PayLater took while the store has no order for it: a paid session whose cart could not
 * become an order (stock, a changed cart), or a superseded attempt of a session paid after a new one
 * replaced it. Each goes on Settings → PayLater once (dedupe key per PayLater order), with the plan
 * the merchant's `paidWithoutOrder` option calls for: an automatic full refund once PayLater's
 * refund window opens (auto-refund.ts), or held for a person.
 */

/** What the logs tell an operator about such a payment. */
export const PAID_WITHOUT_ORDER_NEXT_STEP =
  'It is listed on Settings → PayLater (paid without an order): refunded in full automatically once PayLater\'s refund window opens, unless the order is placed first or the option paidWithoutOrder is "hold".'

/** The merchant's choice for the registration a provider id belongs to ("refund" when unknown). */
export function policyOf(container: MedusaContainer, providerId: string): PaidWithoutOrderPolicy {
  const id = registrationIdOf(providerId)
  return configuredRegistrations(container).find((r) => r.id === id)?.options?.paidWithoutOrder ?? "refund"
}

const utc = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC"

/** What the item says about its refund; also when the automatic refund later held it (auto-refund.ts). */
export function planSentence(plan: AutoRefund): string {
  if (plan.state === "held" && plan.last_error) {
    return `Not refunded automatically, and it cannot be refunded from here: ${plan.last_error}. Refund it in that PayLater account's merchant portal (or configure its registration again), then mark it resolved.`
  }
  return plan.state === "held"
    ? 'Held for a person (paidWithoutOrder: "hold"): place the order by hand, or refund it.'
    : `It will be refunded in full automatically from ${utc(plan.next_attempt_at!)} (PayLater's refund window); to place the order by hand instead, mark this resolved before then.`
}

export interface PaidAttempt {
  paylater_order_id: string
  session_id: string
  provider_id: string
  /** Two-decimal QAR text. */
  amount: string
  paid_at: Date
  payment_id?: string | null
  payment_collection_id?: string | null
  cart_id?: string | null
  order_id?: string | null
  /** What went wrong, in one line. */
  reason: string
  /** Why no configured registration may ask about or refund it (registrationOfAttempt): held for a person. */
  unrouted?: string | null
  detail?: Record<string, unknown>
}

/**
 * Lists one paid attempt without an order (idempotent: the same PayLater order gives the same row).
 * The one gate to the list, decided now by the money plan's list step (planMoney over whoseMoney): money an order holds is
 * never listed; when the cart is an order held by another payment (PayLater's or another method's)
 * this one is the extra: the shopper paid twice. While the owner cannot be told yet (an order being
 * placed this second) it is listed too: the list re-decides when it is read and when it acts. Money
 * PayLater gave back in full already is recorded closed, as refunded: nothing for a person to do.
 */
export async function flagPaidAttempt(container: MedusaContainer, paid: PaidAttempt): Promise<AttentionRecord | null> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  const row = await ledger.findAttempt(paid.paylater_order_id)
  const facts = row ? await moneyFactsOf(container, ledger, row, new Date()) : null
  const owner = facts?.owner ?? ({ owner: "no_order" } as const)
  // The money plan's list step is the gate: money an order holds, or that nobody was paid, is never listed.
  const list = facts ? planMoney(facts).list : ({ step: "refundable" } as const)
  const step = list.step
  if (step === "close_held" || step === "none" || owner.owner === "this_order") return null
  if (owner.owner === "extra") {
    const cartId = paid.cart_id ?? row?.cart_id ?? null
    paid = {
      ...paid,
      cart_id: cartId,
      order_id: owner.order_id,
      reason: `cart ${cartId ?? "?"} became order ${owner.order_id} with another payment, so the shopper paid twice`,
    }
  } else if (owner.owner === "cannot_tell") {
    paid = { ...paid, order_id: owner.order_id, reason: `${paid.reason}; ${ownerSentence(owner)}` }
  }
  // Given back in full already (by another road): nothing is scheduled, the item is recorded closed below.
  const refundedAlready = list.step === "close_refunded"
  const plan: AutoRefund = refundedAlready
    ? { state: "refunded", tries: 0, next_attempt_at: null, last_error: null }
    : paid.unrouted
      ? { state: "held", tries: 0, next_attempt_at: null, last_error: paid.unrouted }
      : planFor(policyOf(container, paid.provider_id), paid.paid_at)
  const item = await ledger.flagForAttention("paid_without_order", {
    dedupe_key: dedupeKeyOf(paid.paylater_order_id),
    summary: `Paid ${paid.amount} QAR at PayLater (${paid.paylater_order_id}), but no order was placed: ${paid.reason}. ${
      refundedAlready ? "PayLater has refunded it in full already; nothing more is sent." : planSentence(plan)
    }`,
    amount: paid.amount,
    paylater_order_id: paid.paylater_order_id,
    session_id: paid.session_id,
    payment_id: paid.payment_id ?? null,
    payment_collection_id: paid.payment_collection_id ?? null,
    cart_id: paid.cart_id ?? null,
    order_id: paid.order_id ?? null,
    detail: { ...paid.detail, provider_id: paid.provider_id, paid_at: paid.paid_at.toISOString() },
    ...planColumns(plan),
  })
  // Kept as a closed item, not skipped, so recovery does not take the paid row up again every run.
  if (refundedAlready && item?.status === "open") {
    await applyListStep(ledger, { ...item, paylater_order_id: paid.paylater_order_id }, list)
    return ((await ledger.listPayLaterAttentions({ id: item.id }, { take: 1 })) as unknown as AttentionRecord[])[0] ?? item
  }
  return item
}

/**
 * A PayLater payment recorded in Medusa (PayLater said paid) whose cart has no order with it: listed
 * with its Medusa payment, which the refund goes through. Decided from the session's paid ledger row
 * (never the payment's data); Medusa's payment only names the payment the refund goes through (a
 * failed completion deletes the paid session, so it is looked up by session id). Null when it is
 * not (or no longer) such a payment: an order holds it, or it has no cart.
 */
export async function flagPaidWithoutOrder(
  container: MedusaContainer,
  sessionId: string,
  why: { signal: string; error?: string | null }
): Promise<AttentionRecord | null> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  const payment = await recordedPaymentOf(container, sessionId)
  if (!payment) {
    return null
  }
  // The attempt the payment was authorized for (payment-attempt.ts), not necessarily the session's current one.
  const rows = await ledger.attemptsOfSession(sessionId)
  const named = attemptOfPayment(payment as { data?: Record<string, unknown> | null })
  const row = rows.find((r) => paymentIsForAttempt(named, r)) ?? null
  if (row?.state !== "paid") {
    return null
  }
  const collectionId = row.payment_collection_id ?? payment.payment_collection_id
  const owner = (await ownersOf(container, [collectionId])).get(collectionId)
  if (!owner?.cart_id) {
    return null
  }
  return flagPaidAttempt(container, {
    paylater_order_id: row.paylater_order_id,
    session_id: sessionId,
    provider_id: row.provider_id ?? payment.provider_id,
    amount: storedAmountText(row),
    paid_at: new Date((row.paid_at ?? row.last_status_at ?? payment.captured_at ?? payment.created_at ?? Date.now()) as string | Date),
    payment_id: row.payment_id ?? payment.id,
    payment_collection_id: collectionId,
    cart_id: owner.cart_id,
    reason: `cart ${owner.cart_id} could not become an order${why.error ? ` (${why.error.slice(0, 300)})` : ""}`,
    detail: { signal: why.signal, paylater_ref: row.paylater_ref ?? null },
  })
}

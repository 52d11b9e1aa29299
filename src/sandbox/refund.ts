import type { SandboxContext } from "./context"
import { json, type Reply } from "./http"
import { formatAmount, parseAmount, parseTwoDecimalString } from "./money"

/*
 * Refund. Every refusal answers 400 (codes unpublished) with PayLater's bodies:
 * `{"error":"Transaction Reference is required"}` or `{"error":"Refund Error","message":...}`.
 * Refunds change neither the order status nor send a webhook: PayLater publishes neither.
 */

const TEN_MINUTES = 10 * 60_000
const TWENTY_NINE_DAYS = 29 * 24 * 60 * 60_000

const refundError = (message: string): Reply => json(400, { error: "Refund Error", message })

export function handleRefund(ctx: SandboxContext, body: Record<string, unknown>): Reply {
  const raw = body.order_id
  const orderId = typeof raw === "string" ? raw.trim() : typeof raw === "number" ? String(raw) : ""
  if (!orderId) return json(400, { error: "Transaction Reference is required" })

  const order = ctx.store.orders.get(orderId)
  if (order) ctx.orders.expireIfDue(order)
  if (!order || order.status !== 2 || order.paidAt === null) {
    return refundError("Invalid transaction reference")
  }

  const partial = body.amount !== undefined && body.amount !== null
  const requested = partial ? parseTwoDecimalString(body.amount) : null
  if (partial && requested === null) {
    return refundError('Invalid refund amount: send a string with two decimals, e.g. "120.00"')
  }
  if (requested !== null && requested <= 0) return refundError("Refund amount must be greater than zero")

  const elapsed = ctx.clock.now() - order.paidAt
  if (elapsed < TEN_MINUTES) {
    return refundError("Refund cannot be processed less than 10 minutes after the payment, please try later")
  }
  if (elapsed > TWENTY_NINE_DAYS) {
    return refundError("Refund cannot be processed for payments made more than 29 days ago")
  }

  const total = (parseAmount(order.amount) as { dirhams: number }).dirhams
  const refunded = (parseAmount(order.refundedAmount) as { dirhams: number }).dirhams
  const remaining = total - refunded
  if (remaining <= 0) return refundError("This transaction has already been fully refunded")

  // Published rule: a partial amount is below the order total. It also cannot exceed what is left,
  // and may equal it (a merchant refunding "the rest" after partials sends that amount).
  if (requested !== null && requested >= total) {
    return refundError(
      `Refund amount must be less than the order total of ${formatAmount(total)}; omit the amount for a full refund`
    )
  }
  if (requested !== null && requested > remaining) {
    return refundError(`Refund amount exceeds the refundable amount of ${formatAmount(remaining)}`)
  }

  ctx.orders.recordRefund(order, requested ?? remaining, requested === null)
  ctx.log(`refund ${formatAmount(requested ?? remaining)} for ${orderId}`)
  return json(200, { message: `Refund request accepted for reference Id: ${orderId}` })
}

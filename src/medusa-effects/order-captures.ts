import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

/**
 * Records a payment's captures in the order's transactions, once.
 *
 * Why: processPaymentWorkflow's no-cart branch only authorizes the session. Our provider reports
 * `captured`, so the payment module records the capture itself, but nothing adds the matching order
 * transaction (capturePaymentWorkflow would, and is never run). Without it the order's summary keeps
 * showing the amount as outstanding although the payment is captured. The same holds for a cart's
 * order whose completion died before its transaction step (finish-order.ts). Keyed by capture id and
 * done under a lock, so repeated webhooks, polls and admin views add it exactly once.
 */
export async function recordOrderCaptures(container: MedusaContainer, sessionId: string, orderId: string): Promise<number> {
  return recordCapturesOnOrder(container, { payment_session_id: sessionId }, orderId)
}

/** The same, for one Medusa payment named by its id or its session. */
export async function recordPaymentCapturesOnOrder(container: MedusaContainer, filters: PaymentFilter, orderId: string): Promise<number> {
  return recordCapturesOnOrder(container, filters, orderId)
}

export type PaymentFilter = { payment_session_id: string } | { id: string }
type Captured = { payment: { id: string; currency_code: string }; captures: Array<{ id: string; raw_amount: unknown }> }

/** The payment's captures; null when it has none (or is canceled). */
async function capturesOf(container: MedusaContainer, filters: PaymentFilter): Promise<Captured | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [payment],
  } = await query.graph({
    entity: "payment",
    fields: ["id", "currency_code", "canceled_at", "captures.id", "captures.raw_amount"],
    filters,
  })
  const captures = (payment?.captures ?? []).filter(Boolean) as Captured["captures"]
  return payment && !payment.canceled_at && captures.length ? { payment, captures } : null
}

async function missingOnOrder(container: MedusaContainer, orderId: string, captures: Captured["captures"]) {
  const existing = await container
    .resolve(Modules.ORDER)
    .listOrderTransactions({ order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) }, { select: ["reference_id"] })
  const known = new Set(existing.map((t) => t.reference_id))
  return captures.filter((c) => !known.has(c.id))
}

/** How many of the payment's captures the order's transactions lack (a read: nothing written). */
export async function capturesMissingOnOrder(container: MedusaContainer, filters: PaymentFilter, orderId: string): Promise<number> {
  const captured = await capturesOf(container, filters)
  return captured ? (await missingOnOrder(container, orderId, captured.captures)).length : 0
}

async function recordCapturesOnOrder(container: MedusaContainer, filters: PaymentFilter, orderId: string): Promise<number> {
  const captured = await capturesOf(container, filters)
  if (!captured) return 0
  return container.resolve(Modules.LOCKING).execute(
    `paylater:order-captures:${orderId}`,
    async () => {
      const missing = await missingOnOrder(container, orderId, captured.captures)
      if (missing.length) {
        await container.resolve(Modules.ORDER).addOrderTransactions(
          missing.map((c) => ({
            order_id: orderId,
            amount: c.raw_amount as never,
            currency_code: captured.payment.currency_code,
            reference: "capture",
            reference_id: c.id,
          }))
        )
      }
      return missing.length
    },
    { timeout: 5 }
  )
}

import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { ownersOf } from "../medusa-records/owners"
import { redirectFor } from "./return-redirect"
import { recordedPaymentOf } from "../paid-without-order/listing"

/**
 * Where a shopper returning to a session Medusa deleted goes, when PayLater's payment for it was
 * recorded: Medusa's cart completion deletes the paid session when it fails after the payment, so
 * a reload of the return URL must still say "paid, not placed" (or show the order, if a later
 * completion placed one), not 404. Null when no payment was recorded for the session.
 */
export async function returnAfterDeletion(container: MedusaContainer, sessionId: string): Promise<string | null> {
  const payment = await recordedPaymentOf(container, sessionId)
  if (!payment) return null
  const owner = (await ownersOf(container, [payment.payment_collection_id])).get(payment.payment_collection_id)
  const context = { session_id: sessionId, session_data: (payment.data ?? {}) as PayLaterSessionData, cart_id: owner?.cart_id ?? null }
  return owner?.order_id
    ? redirectFor(context, { kind: "success", order_id: owner.order_id })
    : redirectFor(context, { kind: "failure", reason: "paid_not_placed" })
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../../providers/paylater/session-data"
import { readReturnContext } from "../paylater-return/steps/load-return-context"

/** Both PayLater methods, whatever id the merchant registered them under. */
export const PAYLATER_PROVIDER = /^pp_paylater(-rtp)?_/
export const PAYLATER_RTP_PROVIDER = /^pp_paylater-rtp_/

export interface PayLaterSessionContext {
  session_id: string
  provider_id: string
  session_status: string
  session_data: PayLaterSessionData
  payment_collection_id: string
  /** Set for a storefront checkout. */
  cart_id: string | null
  /** The cart's order, or for a point-of-sale request the order the collection belongs to. */
  order_id: string | null
  /** True when the collection belongs to an order directly (point of sale), not to a cart. */
  for_order: boolean
}

/** Reads one payment session with its cart and order. Null for unknown and non-PayLater sessions. */
export async function readSessionContext(
  container: MedusaContainer,
  sessionId: string
): Promise<PayLaterSessionContext | null> {
  const base = await readReturnContext(container, sessionId)
  if (!base || !PAYLATER_PROVIDER.test(base.provider_id)) {
    return null
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [session],
  } = await query.graph({ entity: "payment_session", fields: ["payment_collection_id"], filters: { id: sessionId } })
  const paymentCollectionId: string = session.payment_collection_id
  let orderId = base.order_id
  let forOrder = false
  if (!base.cart_id) {
    const {
      data: [link],
    } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order_id"],
      filters: { payment_collection_id: paymentCollectionId },
    })
    orderId = link?.order_id ?? null
    forOrder = !!orderId
  }
  return {
    ...base,
    payment_collection_id: paymentCollectionId,
    order_id: orderId,
    for_order: forOrder,
  }
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../providers/paylater/session-data"

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

/**
 * One PayLater payment session with its cart and order, read through Query: the session, then the
 * collection's cart (storefront) and that cart's order, or the collection's order (point of sale).
 * Null for unknown sessions and for sessions of other providers.
 */
export async function readPayLaterSession(
  container: MedusaContainer,
  sessionId: string
): Promise<PayLaterSessionContext | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [session],
  } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "data", "provider_id", "payment_collection_id"],
    filters: { id: sessionId },
  })
  if (!session || !PAYLATER_PROVIDER.test(session.provider_id)) {
    return null
  }
  const collectionId: string = session.payment_collection_id
  const {
    data: [cartLink],
  } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: collectionId },
  })
  const cartId: string | null = cartLink?.cart_id ?? null
  const {
    data: [orderLink],
  } = cartId
    ? await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
    : await query.graph({
        entity: "order_payment_collection",
        fields: ["order_id"],
        filters: { payment_collection_id: collectionId },
      })
  const orderId: string | null = orderLink?.order_id ?? null
  return {
    session_id: session.id,
    provider_id: session.provider_id,
    session_status: session.status,
    session_data: (session.data ?? {}) as PayLaterSessionData,
    payment_collection_id: collectionId,
    cart_id: cartId,
    order_id: orderId,
    for_order: !cartId && !!orderId,
  }
}

import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"

/** Both PayLater methods, whatever id the merchant registered them under. */
export const PAYLATER_PROVIDER = /^pp_paylater(-rtp)?_/
export const PAYLATER_RTP_PROVIDER = /^pp_paylater-rtp_/

export interface PayLaterSessionContext {
  session_id: string
  provider_id: string
  session_status: string
  payment_collection_id: string
  /** Set for a storefront checkout. */
  cart_id: string | null
  /** The cart's order, or for a point-of-sale request the order the collection belongs to. */
  order_id: string | null
  /** True when the collection belongs to an order directly (point of sale), not to a cart. */
  for_order: boolean
  /** The session's current attempt in the ledger: what PayLater last said about it, and its expiry. */
  attempt: AttemptRecord | null
  /** Set when a re-read found the session deleted (e.g. by the paid session of a double submit). */
  session_gone?: true
}

interface LinkRow {
  cart_id?: string
  order_id?: string
}

interface LinkTable {
  list(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<LinkRow[]>
}

interface LinkModules {
  getLinkModule(moduleA: string, keyA: string, moduleB: string, keyB: string): LinkTable | undefined
}

function linkTable(container: MedusaContainer, module: string, key: string): LinkTable {
  const links = container.resolve(ContainerRegistrationKeys.LINK) as unknown as LinkModules
  const table = links.getLinkModule(module, key, Modules.PAYMENT, "payment_collection_id")
  if (!table) {
    throw new Error(`PayLater: Medusa's ${module} ↔ payment collection link is not loaded`)
  }
  return table
}

/**
 * One PayLater payment session with its cart and order: the session from the payment module, then
 * the collection's cart link and order link from the link modules. Cart completion links the order
 * to the payment collection too, so one order link serves a storefront checkout and a point-of-sale
 * request alike. (Read without Query: this runs for every notification, and Query's per-call
 * planning cost more than the reads themselves.) Null for unknown sessions and other providers'.
 */
export async function readPayLaterSession(
  container: MedusaContainer,
  sessionId: string
): Promise<PayLaterSessionContext | null> {
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions(
    { id: sessionId },
    { select: ["id", "status", "provider_id", "payment_collection_id"], take: 1 }
  )
  if (!session || !PAYLATER_PROVIDER.test(session.provider_id)) {
    return null
  }
  const collectionId = session.payment_collection_id
  const filter = { payment_collection_id: collectionId }
  const [carts, orders, attempt] = await Promise.all([
    linkTable(container, Modules.CART, "cart_id").list(filter, { select: ["cart_id"], take: 1 }),
    linkTable(container, Modules.ORDER, "order_id").list(filter, { select: ["order_id"], take: 1 }),
    currentAttemptOf(container, session.id),
  ])
  const cartId = carts[0]?.cart_id ?? null
  const orderId = orders[0]?.order_id ?? null
  return {
    session_id: session.id,
    provider_id: session.provider_id,
    session_status: session.status,
    payment_collection_id: collectionId,
    cart_id: cartId,
    order_id: orderId,
    for_order: !cartId && !!orderId,
    attempt,
  }
}

/** The session's current ledger row (null when the plugin's module is not loaded, or none yet). */
export async function currentAttemptOf(container: MedusaContainer, sessionId: string): Promise<AttemptRecord | null> {
  return (await ledgerModuleOf(container)?.currentAttemptOf(sessionId)) ?? null
}

import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { sessionIdFromOrderId } from "../providers/paylater/session-data"

import { PAYLATER_PROVIDER } from "./provider-ids"
import { createStaleAfterMs } from "./create-in-flight"

export { PAYLATER_PROVIDER, PAYLATER_RTP_PROVIDER } from "./provider-ids"

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
  /**
   * Medusa's create of the session has not written the provider's answer yet (medusaCreating): its
   * last write sets the session's status (pending) over anything recorded before it.
   */
  medusa_creating?: boolean
  /** Set when a re-read found the session deleted (e.g. by the paid session of a double submit). */
  session_gone?: true
  /**
   * The collection's live sessions, this one included, as read with it. Undefined when not read:
   * whoever needs them reads them then.
   */
  collection_session_ids?: string[]
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

/** More sessions than this on one collection are not taken as its whole list (Medusa keeps one, two after a race). */
const COLLECTION_SESSIONS_READ = 20

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
  const payment = container.resolve(Modules.PAYMENT)
  const select = ["id", "status", "provider_id", "payment_collection_id", "data", "created_at"]
  // The collection's live sessions, this one among them, in one query: settlement drops the others
  // after a paid authorization only when there were any (medusa-effects/settlement-effects.ts
  // dropOtherSessions). A filter through the collection relation, which the typed filter does not
  // declare (hence the cast).
  const listed = await payment.listPaymentSessions({ payment_collection: { payment_sessions: { id: sessionId } } } as never, {
    select,
    take: COLLECTION_SESSIONS_READ,
  })
  const session =
    listed.find((s) => s.id === sessionId) ??
    (listed.length >= COLLECTION_SESSIONS_READ ? (await payment.listPaymentSessions({ id: sessionId }, { select, take: 1 }))[0] : undefined)
  if (!session || !PAYLATER_PROVIDER.test(session.provider_id)) {
    return null
  }
  // Only when the list is the collection's whole list; otherwise unknown, never "no others".
  const whole = listed.length < COLLECTION_SESSIONS_READ && listed.every((s) => s.payment_collection_id === session.payment_collection_id)
  const collectionSessionIds = whole ? listed.map((s) => s.id) : undefined
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
    medusa_creating: medusaCreating(session, attempt, createStaleAfterMs(container, session.provider_id)),
    collection_session_ids: collectionSessionIds,
  }
}

/**
 * Whether Medusa's create of this session may still be running: it inserts the session with the
 * storefront's data, asks the provider, then writes the provider's answer (data naming the attempt,
 * and its status) over the row. Until then the data names none of the session's own attempts: the
 * storefront cannot name one, since the session's id does not exist before that insert. A create
 * whose process died never writes: past `staleAfterMs` (create-in-flight.ts) since the later of the
 * session's insert and its current attempt's write-ahead, none can still be running. Read only to
 * know whether Medusa is done writing, never as a money fact.
 */
export function medusaCreating(
  session: { id: string; data?: Record<string, unknown> | null; created_at?: Date | string | null },
  attempt: { created_at?: Date | string | null } | null,
  staleAfterMs: number,
  now: Date = new Date()
): boolean {
  const named = session.data?.paylater_order_id
  if (typeof named === "string" && sessionIdFromOrderId(named) === session.id) return false
  const times = [session.created_at, attempt?.created_at].map((t) => (t ? new Date(t).getTime() : NaN)).filter((t) => !Number.isNaN(t))
  if (!times.length) return true
  return now.getTime() - Math.max(...times) < staleAfterMs
}

/** The session's current ledger row (null when the plugin's module is not loaded, or none yet). */
export async function currentAttemptOf(container: MedusaContainer, sessionId: string): Promise<AttemptRecord | null> {
  return (await ledgerModuleOf(container)?.currentAttemptOf(sessionId)) ?? null
}

/**
 * Whether the collection had sessions besides this one when settlement read it. Medusa's create
 * deletes the collection's sessions it read, so a session created after that read comes from a
 * create that either read the collection before this session existed (spanning the shopper's whole
 * payment) or deletes this one itself: the same race as a session created between the drop and
 * Medusa's completion, which no drop closes. So a lone session needs no drop; when there were
 * others they are read again under the cart lock, because their status may have changed since (an
 * authorized one must never be deleted).
 */
export function mayHaveOtherSessions(context: Pick<PayLaterSessionContext, "session_id" | "collection_session_ids">): boolean {
  return !context.collection_session_ids || context.collection_session_ids.some((id) => id !== context.session_id)
}

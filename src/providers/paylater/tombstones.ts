import type { Logger } from "@medusajs/framework/types"
import { toAmountText } from "./money"
import { text, type PayLaterSessionData } from "./session-data"

/**
 * Tombstones of deleted PayLater sessions.
 *
 * Medusa deletes a cart's payment sessions when the cart changes (or the shopper picks another
 * method), and it deletes the row for good (a SQL DELETE, no `deleted_at`). PayLater has no cancel:
 * the link or request stays payable until it expires. A shopper who pays it anyway has paid for a
 * session Medusa no longer knows, and nothing could find that payment again. So, just before the row
 * goes, the provider writes what is needed to ask PayLater about it later into the payment
 * collection's metadata (the collection outlives its sessions). The reconciliation job asks PayLater
 * about each open tombstone and reports a paid one to the operator.
 */

export const TOMBSTONES_KEY = "paylater_deleted_sessions"

/** Kept per collection; the oldest settled ones go first when a collection has more. */
const MAX_TOMBSTONES = 20

export interface SessionTombstone {
  session_id: string
  provider_id: string
  /** What PayLater knows the payment by (session id, maybe suffixed). */
  paylater_order_id: string
  /** Two-decimal QAR text. */
  amount: string
  expires_at: string | null
  created_at: string | null
  deleted_at: string
  /** Set once PayLater's answer is final: "paid" (reported to the operator) or "failed". */
  outcome?: "paid" | "failed"
  settled_at?: string
  /** PayLater's own reference once paid. */
  paylater_ref?: string | null
  /**
   * Set when the session lives on but this attempt was replaced (updatePayment started a new one
   * for a new amount): the PayLater order id of the attempt that replaced it. The old link or
   * request stays payable until it expires.
   */
  superseded_by?: string
}

type Metadata = Record<string, unknown> | null | undefined

export function tombstonesOf(metadata: Metadata): SessionTombstone[] {
  const list = metadata?.[TOMBSTONES_KEY]
  if (!Array.isArray(list)) {
    return []
  }
  return list.filter(
    (t): t is SessionTombstone =>
      !!t && typeof t === "object" && typeof t.session_id === "string" && typeof t.paylater_order_id === "string"
  )
}

/**
 * `changes` merged by PayLater order id over what is stored (a settled entry is never reopened),
 * capped. By PayLater order, not session: a session's superseded attempts each have their own.
 */
export function mergeTombstones(stored: SessionTombstone[], changes: SessionTombstone[]): SessionTombstone[] {
  const byId = new Map(stored.map((t) => [t.paylater_order_id, t]))
  for (const change of changes) {
    const current = byId.get(change.paylater_order_id)
    byId.set(change.paylater_order_id, current?.outcome ? current : { ...current, ...change })
  }
  const all = [...byId.values()]
  if (all.length <= MAX_TOMBSTONES) {
    return all
  }
  const open = all.filter((t) => !t.outcome)
  const settled = all.filter((t) => !!t.outcome)
  // Open ones are never dropped while room can be made from settled ones.
  const keepSettled = settled.slice(Math.max(0, settled.length - Math.max(0, MAX_TOMBSTONES - open.length)))
  return [...open.slice(Math.max(0, open.length - MAX_TOMBSTONES)), ...keepSettled]
}

export interface MetadataStore {
  read(): Promise<Metadata>
  write(metadata: Record<string, unknown>): Promise<void>
}

/**
 * Read, merge, write, then read again to check: the metadata is one JSON column, so a writer beside
 * us (the provider adding a tombstone while the job settles another) could overwrite our change.
 * Each side checks its own change landed and writes again if not.
 */
export async function saveTombstones(store: MetadataStore, changes: SessionTombstone[], attempts = 3): Promise<boolean> {
  const landed = (list: SessionTombstone[]) =>
    changes.every((c) => list.some((t) => t.paylater_order_id === c.paylater_order_id && (!c.outcome || t.outcome === c.outcome)))
  for (let i = 0; i < attempts; i++) {
    const metadata = (await store.read()) ?? {}
    const merged = mergeTombstones(tombstonesOf(metadata), changes)
    await store.write({ ...metadata, [TOMBSTONES_KEY]: merged })
    if (landed(tombstonesOf(await store.read()))) {
      return true
    }
  }
  return false
}

interface InternalService {
  list(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<Array<Record<string, any>>>
  update(data: Record<string, unknown>): Promise<unknown>
}

function service(container: Record<string, unknown>, name: string): InternalService | undefined {
  try {
    return container[name] as InternalService | undefined
  } catch {
    return undefined
  }
}

/**
 * Called by the provider's deletePayment, while the session row still exists, and by updatePayment
 * for the attempt a new one replaced (`supersededBy`: the new attempt's PayLater order id). Never throws: a
 * deletion must not fail because of this, but a tombstone that could not be written is logged as an
 * error, with what an operator needs to check the payment by hand.
 */
export async function recordDeletedSession(
  container: Record<string, unknown>,
  data: PayLaterSessionData,
  logger: Logger | Console,
  now: Date = new Date(),
  supersededBy?: string
): Promise<void> {
  const orderId = text(data, "paylater_order_id")
  const sessionId = text(data, "session_id")
  // Never reached PayLater, or PayLater already said it failed for good: nothing can be paid.
  if (!orderId || !sessionId || data.paylater_status_code === 3) {
    return
  }
  const describe = `PayLater order ${orderId} (session ${sessionId}, ${data.amount ?? "?"} QAR)`
  try {
    const sessions = service(container, "paymentSessionService")
    const collections = service(container, "paymentCollectionService")
    if (!sessions || !collections) {
      throw new Error("the payment module's services are not available to the provider")
    }
    const [row] = await sessions.list(
      { id: sessionId },
      { select: ["id", "provider_id", "payment_collection_id", "amount", "raw_amount", "created_at"], take: 1 }
    )
    if (!row?.payment_collection_id) {
      return
    }
    const tombstone: SessionTombstone = {
      session_id: sessionId,
      provider_id: row.provider_id,
      paylater_order_id: orderId,
      amount: data.amount ?? toAmountText(row.raw_amount ?? row.amount),
      expires_at: text(data, "expires_at") ?? null,
      created_at: row.created_at ? new Date(row.created_at).toISOString() : null,
      deleted_at: now.toISOString(),
      ...(supersededBy ? { superseded_by: supersededBy } : {}),
    }
    const id = row.payment_collection_id as string
    const saved = await saveTombstones(
      {
        read: async () => (await collections.list({ id }, { select: ["id", "metadata"], take: 1 }))[0]?.metadata,
        write: async (metadata) => {
          await collections.update({ id, metadata })
        },
      },
      [tombstone]
    )
    if (!saved) {
      throw new Error("the tombstone did not stay in the payment collection's metadata")
    }
  } catch (error) {
    logger.error(
      `PayLater: ${describe} was ${supersededBy ? `replaced by ${supersededBy}` : "deleted in Medusa"} while still payable at PayLater, and could not be recorded for reconciliation (${error instanceof Error ? error.message : String(error)}). Check it in the PayLater merchant portal after ${data.expires_at ?? "its expiry"}: if it was paid, refund it.`
    )
  }
}

import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { decideOwner, type CollectionMoney, type Owner } from "../modules/paylater-ledger/whose-money"
import { heldNote } from "../modules/paylater-ledger/money-plan"
import { applyListStep } from "../modules/paylater-ledger/list-step"
import { collectionsOfOrder, ownersOf } from "../medusa-records/owners"
import { PAYLATER_PROVIDER } from "../medusa-records/session"
import { attemptOfPayment } from "../medusa-records/payment-attempt"
import { finishPlacedOrder } from "./finish-order"

/**
 * Medusa's records of one payment collection's money, read now: the order it belongs to (the cart's
 * order, or the point-of-sale order itself), its payments, and which of them the order's
 * transactions hold a capture of.
 */
export async function collectionMoneyOf(container: MedusaContainer, collectionId: string): Promise<CollectionMoney> {
  const owner = (await ownersOf(container, [collectionId])).get(collectionId)
  const orderId = owner?.order_id ?? null
  // The checkout's money is counted against the order's money wherever Medusa recorded it: the cart's
  // collection and every one the admin or the point of sale added to the order since. A second
  // collection paid for an order whose checkout payment a crash left unrecorded makes the checkout
  // payment extra, never both the order's. A point-of-sale collection is decided on its own: it pays
  // what was outstanding, and its capture is written on the order a moment after it is taken.
  const collectionIds = orderId && owner?.cart_id ? [...new Set([collectionId, ...(await collectionsOfOrder(container, orderId))])] : [collectionId]
  const payments = await container.resolve(Modules.PAYMENT).listPayments({ payment_collection_id: collectionIds } as never, {
    select: ["id", "provider_id", "payment_session_id", "payment_collection_id", "amount", "raw_amount", "canceled_at", "created_at", "data"],
    relations: ["captures"],
  })
  const captureIds = payments.flatMap((p) => (p.captures ?? []).filter(Boolean).map((c) => c.id))
  const orders = container.resolve(Modules.ORDER)
  const [order, held] = orderId
    ? await Promise.all([
        // Through Query: it computes the order's total (after edits), which the module's list does not.
        container
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "order", fields: ["id", "created_at", "total"], filters: { id: orderId } })
          .then(({ data: [o] }) => (o as { id: string; created_at: Date; total?: BigNumberInput | null } | undefined) ?? null),
        captureIds.length
          ? orders.listOrderTransactions({ order_id: orderId, reference: "capture", reference_id: captureIds }, { select: ["reference_id"] })
          : Promise.resolve([]),
      ])
    : [null, []]
  const heldIds = new Set(held.map((t) => t.reference_id))
  return {
    order: order ? { id: order.id, created_at: order.created_at as Date, total: order.total ?? null } : null,
    payments: payments.map((p) => ({
      id: p.id,
      session_id: (p as { payment_session_id?: string | null }).payment_session_id ?? null,
      paylater: PAYLATER_PROVIDER.test(p.provider_id),
      attempt: PAYLATER_PROVIDER.test(p.provider_id) ? attemptOfPayment(p) : null,
      canceled: !!p.canceled_at,
      created_at: p.created_at as Date,
      held: (p.captures ?? []).some((c) => c && heldIds.has(c.id)),
      added: p.payment_collection_id !== collectionId,
      amount: (p as { raw_amount?: BigNumberInput }).raw_amount ?? p.amount,
    })),
  }
}

/** The collection a row's session belongs to (also for a session Medusa deleted). */
async function collectionOfRow(container: MedusaContainer, row: AttemptRecord): Promise<string | null> {
  if (row.payment_collection_id) return row.payment_collection_id
  const [session] = await container
    .resolve(Modules.PAYMENT)
    .listPaymentSessions({ id: row.session_id }, { select: ["id", "payment_collection_id"], take: 1, withDeleted: true } as never)
  return session?.payment_collection_id ?? null
}

/**
 * Whose money this attempt is, decided now from its row and Medusa's records of its collection's
 * order (modules/paylater-ledger/whose-money.ts). When the order holds it and that is not recorded
 * yet, it is recorded on the row (the only writer of a row's `order_id`), and the row's open items
 * on Settings → PayLater close with a note (while nothing of it was refunded; after a refund, the
 * money plan's list step): from then on it is the order's, whatever happens to sessions or carts.
 * Every money action calls this at the moment it acts. `record: false` only looks: for a caller that
 * holds none of the money's locks and acts on Medusa's records alone (the order page's Refund), so
 * recording, and finishing a half-made order, is left to the roads that hold them.
 */
export async function whoseMoney(container: MedusaContainer, row: AttemptRecord, now: Date = new Date(), { record = true } = {}): Promise<Owner> {
  const quick = decideOwner(row, null, now)
  if (quick.owner === "not_paid" || quick.owner === "this_order") return quick
  const collectionId = await collectionOfRow(container, row)
  const owner = decideOwner(row, collectionId ? await collectionMoneyOf(container, collectionId) : null, now)
  if (record && owner.owner === "this_order" && (await recordOwner(container, row, collectionId!, owner)) === undefined) {
    // The order is gone since it was read (a failed completion's leftover, undone): decided again from what is there now.
    return decideOwner(row, await collectionMoneyOf(container, collectionId!), now)
  }
  return owner
}

/**
 * Medusa's records first (a completion that died part-way is finished: finish-order.ts), then the
 * row: once the row names its order the decision is final and nobody would finish them later.
 * Returns the row as recorded (the ledger's own write returns it, so nobody reads it back);
 * undefined when the order is gone since it was read (a failed completion's compensation), to be
 * decided again next time.
 */
async function recordOwner(
  container: MedusaContainer,
  row: AttemptRecord,
  collectionId: string,
  owner: Extract<Owner, { owner: "this_order" }>
): Promise<AttemptRecord | null | undefined> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  if (!owner.medusa_holds) {
    const placed = { order_id: owner.order_id, payment_collection_id: collectionId, payment_id: owner.payment_id }
    if ((await finishPlacedOrder(container, row, placed)) === null) return undefined
  }
  const recorded = await ledger.recordOrderOwner(row.paylater_order_id, { order_id: owner.order_id, payment_id: owner.payment_id })
  // Nothing went back: its items close as held. Once a refund exists the money plan's list step
  // decides (closed as refunded when PayLater gave all of it back), applied by whoever asked.
  if (!MathBN.gt(await ledger.refundedAmount(row.paylater_order_id), 0)) {
    await applyListStep(ledger, { paylater_order_id: row.paylater_order_id }, { step: "close_held", note: heldNote(owner) })
  }
  return recorded
}

/**
 * After an order was placed from a collection: records which of the collection's paid attempts holds
 * its money (completion's critical section, and a later signal seeing an order Medusa's own
 * completion placed). Returns that attempt's row, null when the order holds no PayLater payment of
 * the collection, and undefined while that cannot be told yet (decideOwner's bounded "cannot tell").
 */
export async function recordOrderOwner(
  container: MedusaContainer,
  placed: { order_id: string; payment_collection_id: string },
  now: Date = new Date(),
  /** The row of the settlement that placed the order (as PayLater's answer left it): the likely owner, decided first without a read. */
  likely?: AttemptRecord | null
): Promise<AttemptRecord | null | undefined> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  const money = await collectionMoneyOf(container, placed.payment_collection_id)
  if (money.order?.id !== placed.order_id) return null
  const sessions = [...new Set(money.payments.filter((p) => p.paylater && !p.canceled && p.session_id).map((p) => p.session_id!))]
  if (likely && sessions.includes(likely.session_id)) {
    const owner = decideOwner(likely, money, now)
    if (owner.owner === "this_order" && owner.order_id === placed.order_id) {
      return owner.recorded ? likely : await recordOwner(container, likely, placed.payment_collection_id, owner)
    }
  }
  let unsure = false
  for (const sessionId of sessions) {
    const rows = await ledger.attemptsOfSession(sessionId)
    // The attempt the session's payment was authorized for decides (decideOwner); the current one first.
    const paid = [...rows.filter((r) => r.state === "paid" && !r.superseded_by), ...rows.filter((r) => r.state === "paid" && r.superseded_by)]
    for (const row of paid) {
      const owner = decideOwner(row, money, now)
      if (owner.owner === "this_order" && owner.order_id === placed.order_id) {
        return owner.recorded ? row : await recordOwner(container, row, placed.payment_collection_id, owner)
      }
      if (owner.owner === "cannot_tell") unsure = true
    }
  }
  return unsure ? undefined : null
}

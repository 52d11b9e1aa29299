import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { holdsOrderMoney } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { ownersOf } from "./owners"
import { PAYLATER_PROVIDER } from "./session"

/**
 * Records which attempt holds a placed order's money, from Medusa's own records: the PayLater payment
 * of the order's collection whose capture the order's transactions hold (completion adds them for the
 * payment it authorized), its `payment_session_id`, that session's paid attempt in the ledger. Never
 * "the latest attempt" nor the first payment: a payment whose completion failed (sold out) stays on
 * the collection, a session the storefront started after the order or a second live session is not
 * the order's. Idempotent; returns the owner's row, null when the order holds no PayLater payment,
 * and undefined while it cannot be told yet: the order exists but its transactions are not written
 * (a completion in flight). Callers must then neither list nor refund anything of the cart.
 */
export async function recordOrderOwner(
  container: MedusaContainer,
  placed: { order_id: string; payment_collection_id: string }
): Promise<AttemptRecord | null | undefined> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  const payments = (
    await container.resolve(Modules.PAYMENT).listPayments(
      { payment_collection_id: placed.payment_collection_id } as never,
      { select: ["id", "provider_id", "payment_session_id", "canceled_at"], relations: ["captures"] }
    )
  ).filter((p) => PAYLATER_PROVIDER.test(p.provider_id) && !p.canceled_at)
  const captureIds = payments.flatMap((p) => (p.captures ?? []).filter(Boolean).map((c) => c.id))
  if (!captureIds.length) return null
  const held = await container
    .resolve(Modules.ORDER)
    .listOrderTransactions({ order_id: placed.order_id, reference: "capture", reference_id: captureIds }, { select: ["reference_id"] })
  if (!held.length) return undefined
  const heldIds = new Set(held.map((t) => t.reference_id))
  const payment = payments.find((p) => (p.captures ?? []).some((c) => c && heldIds.has(c.id)))
  const sessionId = (payment as { payment_session_id?: string } | undefined)?.payment_session_id
  if (!payment || !sessionId) return null
  const rows = await ledger.attemptsOfSession(sessionId)
  // The attempt authorizePayment asked about: the session's paid one not superseded, else its paid one.
  const row = rows.find((r) => r.state === "paid" && !r.superseded_by) ?? rows.find((r) => r.state === "paid")
  if (!row) return null
  if (holdsOrderMoney(row) && row.order_id === placed.order_id && row.payment_id === payment.id) return row
  return ledger.recordOrderOwner(row.paylater_order_id, { order_id: placed.order_id, payment_id: payment.id })
}

/**
 * Whether an order holds this attempt's money: recorded on its row, or (an order placed by Medusa's
 * own completion that no settlement saw yet) recorded now from the collection's placed order.
 */
export async function heldByAnOrder(container: MedusaContainer, paylaterOrderId: string, paymentCollectionId: string | null): Promise<boolean> {
  const row = (await ledgerModuleOf(container)?.findAttempt(paylaterOrderId)) ?? null
  if (holdsOrderMoney(row)) return true
  const collectionId = paymentCollectionId ?? row?.payment_collection_id ?? null
  if (!collectionId) return false
  const owner = (await ownersOf(container, [collectionId])).get(collectionId)
  if (!owner?.order_id) return false
  const recorded = await recordOrderOwner(container, { order_id: owner.order_id, payment_collection_id: collectionId })
  // Not told yet (a completion in flight): held, so nothing is listed or refunded until it can be.
  return recorded === undefined || recorded?.paylater_order_id === paylaterOrderId
}

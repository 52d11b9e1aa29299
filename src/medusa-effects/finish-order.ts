import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { storedAmountText } from "../providers/paylater/money"
import { capturesMissingOnOrder, recordPaymentCapturesOnOrder } from "./order-captures"
import { stockNeverReserved, undoUnplacedOrder } from "./unplaced-order"

type Row = Record<string, any>

export interface PlacedOrder {
  order_id: string
  payment_collection_id: string
  /** The Medusa payment the order holds (the owner decision's); else the one of the row's session. */
  payment_id: string | null
}

/** Dedupe key of the note a person gets about one order finished here. */
export const unfinishedOrderKeyOf = (orderId: string) => `order_unfinished:${orderId}`

/**
 * Finishes the money records Medusa's cart completion leaves undone when its process dies part-way
 * (fault campaign, issue 32): `completeCartWorkflow` creates the order, then writes its links (cart,
 * payment collection), the cart's completion, its stock reservations and its `order.placed` event
 * side by side, and records the payment's capture on the order last. Killed in between, the order
 * exists and is the cart's, but shows no payment: no link to its collection, no capture transaction,
 * the cart still open. Medusa never resumes it (a new completion of the cart returns the existing
 * order and writes nothing).
 *
 * Called once the owner decision has named this order past its bound (`medusa_holds: false`), and
 * by settlement when the completion died before recording any payment (settle.ts). For a cart's
 * order a person is told first (the stock reservations and the order's confirmation may be missing
 * too, which only a person can judge), then each missing write is made; every write is checked
 * first, one finisher per order at a time, so a repeat or a second instance writes nothing twice.
 * Returns what it wrote; null when the order is no longer the cart's (or the collection's), or was
 * never placed by Medusa's checks (its managed stock unreserved: unplaced-order.ts), in which case
 * the failed completion's rollback is finished here instead.
 *
 * Not guarded: a completion still alive past the owner decision's bound (5 minutes inside one
 * completion, beyond Medusa's own 2-minute cart lock) would add its capture transaction again.
 */
export async function finishPlacedOrder(container: MedusaContainer, row: AttemptRecord, placed: PlacedOrder): Promise<string[] | null> {
  // One at a time per order (a job, a shopper's return and the admin's list may decide it at once):
  // each write below is checked first, and that check must not race its twin. (Not the cart lock:
  // refunds decide whose money it is while holding it.)
  return container.resolve(Modules.LOCKING).execute(`paylater:finish-order:${placed.order_id}`, () => finish(container, row, placed), {
    timeout: FINISH_LOCK_WAIT_SECONDS,
  })
}

// Long enough for a twin finishing the same order (a few writes) to end.
const FINISH_LOCK_WAIT_SECONDS = 15

async function finish(container: MedusaContainer, row: AttemptRecord, placed: PlacedOrder): Promise<string[] | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: orderLinks }, { data: cartLinks }] = await Promise.all([
    query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: placed.payment_collection_id } }),
    query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: placed.payment_collection_id } }),
  ])
  const cartId = (cartLinks as Row[])[0]?.cart_id as string | undefined
  // Read again here: a completion that failed after creating its order deletes it and its links
  // (Medusa's compensation), and the caller's order id may be from before that.
  const ordersNow = cartId
    ? ((await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })).data as Row[])
    : (orderLinks as Row[])
  if (!ordersNow.some((l) => l.order_id === placed.order_id)) return null

  const payment = placed.payment_id ? { id: placed.payment_id } : { payment_session_id: row.session_id }
  const carts = container.resolve(Modules.CART)
  const [cart] = cartId ? await carts.listCarts({ id: cartId }, { select: ["id", "completed_at"], take: 1 }) : []
  const missing = {
    link: !(orderLinks as Row[]).length,
    captures: (await capturesMissingOnOrder(container, payment, placed.order_id)) > 0,
    cart: !!cart && !cart.completed_at,
  }
  if (!missing.link && !missing.captures && !missing.cart) return []
  if (cartId && (await stockNeverReserved(container, placed.order_id))) {
    // Not a completion that stopped after placing it: one that failed at (or before) Medusa's stock
    // check. Finishing it would oversell; its rollback is finished instead, and no person is told
    // that a server stopped (none did).
    await undoUnplacedOrder(container, { order_id: placed.order_id, cart_id: cartId, payment_collection_id: placed.payment_collection_id })
    return null
  }
  // A cart's order was placed by a completion that stopped; a point-of-sale order only lacks the
  // capture a settlement that stopped did not record (no stock or confirmation is in question).
  if (cartId) await tellAPerson(container, row, placed)

  const wrote: string[] = []
  if (missing.link) {
    await container.resolve(ContainerRegistrationKeys.LINK).create({
      [Modules.ORDER]: { order_id: placed.order_id },
      [Modules.PAYMENT]: { payment_collection_id: placed.payment_collection_id },
    })
    wrote.push("linked the order to its payment collection")
  }
  if (missing.captures && (await recordPaymentCapturesOnOrder(container, payment, placed.order_id))) {
    wrote.push("recorded the payment's capture on the order")
  }
  if (missing.cart) {
    await carts.updateCarts(cart!.id, { completed_at: new Date() })
    wrote.push("marked its cart completed")
  }
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .warn(`PayLater: order ${logRef(placed.order_id)} was left half-made by a stopped completion or settlement; ${wrote.join(", ")} (PayLater ${logRef(row.paylater_order_id)}).`)
  return wrote
}

/** Written before the repair (a record before the writes): stock and the confirmation need a person. */
async function tellAPerson(container: MedusaContainer, row: AttemptRecord, placed: PlacedOrder): Promise<void> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return
  await ledger.flagForAttention("mismatch", {
    dedupe_key: unfinishedOrderKeyOf(placed.order_id),
    summary:
      `Order ${placed.order_id} was placed with PayLater payment ${row.paylater_order_id} (${storedAmountText(row)} QAR), but the server stopped ` +
      "while Medusa was still recording it. Its payment is now recorded on the order; Medusa may also have stopped before reserving " +
      "its stock and before announcing the order (no confirmation sent). Check the order's items and stock, send the shopper a " +
      "confirmation if your store sends one, then mark this resolved.",
    amount: storedAmountText(row),
    paylater_order_id: row.paylater_order_id,
    session_id: row.session_id,
    payment_id: placed.payment_id ?? null,
    payment_collection_id: placed.payment_collection_id,
    order_id: placed.order_id,
    cart_id: row.cart_id ?? null,
  })
}

import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import { FINAL_UNPAID, type AttemptState } from "../modules/paylater-ledger/attempt-state"
import { decideLeftoverOrder, type LeftoverOrderFacts } from "../modules/paylater-ledger/leftover-order"
import { CartBusyError, underCartMoneyLocks } from "../money-plan/cart-locks"
import { undoUnplacedOrder } from "../medusa-effects/unplaced-order"
import { PAYLATER_PROVIDER } from "../medusa-records/provider-ids"

/**
 * How far back carts are looked at, and how many attempts a run reads at most (newest first). A
 * leftover is undone on the first run past its bound; the look-back covers a store that was down.
 */
const LOOK_BACK_MS = 2 * 24 * 60 * 60_000
const MAX_ATTEMPTS_PER_RUN = 500

type Row = Record<string, any>

/**
 * Orders a dead cart completion left with no money anywhere (modules/paylater-ledger/leftover-order.ts)
 * have the completion's rollback finished: the cart's PayLater checkouts that ended without money
 * in the look-back, those of them whose cart is an order, each decided again under the cart's lock
 * (no completion or settlement of it under way) on Medusa's records read there. Returns the orders undone.
 */
export async function undoLeftoverOrders(container: MedusaContainer, now: Date = new Date()): Promise<string[]> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return []
  const ended = (await ledger.listPayLaterAttempts(
    { state: [...FINAL_UNPAID], created_at: { $gte: new Date(now.getTime() - LOOK_BACK_MS) } } as never,
    { select: ["cart_id"], order: { created_at: "DESC" }, take: MAX_ATTEMPTS_PER_RUN }
  )) as Array<{ cart_id: string | null }>
  const cartIds = [...new Set(ended.map((a) => a.cart_id).filter((id): id is string => !!id))]
  if (!cartIds.length) return []
  const { data: links } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_cart", fields: ["order_id", "cart_id"], filters: { cart_id: cartIds } })
  const undone: string[] = []
  for (const { order_id, cart_id } of links as Array<{ order_id: string; cart_id: string }>) {
    const done = await underCartMoneyLocks(container, { session_id: null, cart_id }, () => undoIfLeftover(container, ledger, order_id, cart_id, now)).catch(
      (error: unknown) => {
        // Being completed right now, or a failure: the next run decides again.
        if (!(error instanceof CartBusyError)) {
          container
            .resolve(ContainerRegistrationKeys.LOGGER)
            .warn(`PayLater recovery: whether order ${order_id} is a dead completion's leftover could not be decided (tried again next run): ${(error as Error)?.message}`)
        }
        return false
      }
    )
    if (done) undone.push(order_id)
  }
  return undone
}

async function undoIfLeftover(container: MedusaContainer, ledger: PayLaterLedgerModuleService, orderId: string, cartId: string, now: Date): Promise<boolean> {
  const facts = await leftoverFactsOf(container, ledger, orderId, cartId)
  if (!facts || decideLeftoverOrder(facts.decided, now).step !== "undo") return false
  await undoUnplacedOrder(container, { order_id: orderId, cart_id: cartId, payment_collection_id: facts.cart_collection_id }, "no_money")
  return true
}

/** Medusa's records of the order and the cart's PayLater attempts, read under the cart's lock. */
async function leftoverFactsOf(
  container: MedusaContainer,
  ledger: PayLaterLedgerModuleService,
  orderId: string,
  cartId: string
): Promise<{ decided: LeftoverOrderFacts; cart_collection_id: string } | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: orders }, { data: carts }, { data: orderCollections }, { data: cartOrders }] = await Promise.all([
    // Through Query: it computes the order's total, which the module's list does not.
    query.graph({ entity: "order", fields: ["id", "created_at", "status", "is_draft_order", "version", "total", "fulfillments.id"], filters: { id: orderId } }),
    query.graph({ entity: "cart", fields: ["id", "payment_collection.id"], filters: { id: cartId } }),
    query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } }),
    query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } }),
  ])
  const order = orders[0] as Row | undefined
  const cartCollectionId = (carts[0] as Row | undefined)?.payment_collection?.id as string | undefined
  // Still the cart's order (read again under the lock), with the collection a PayLater checkout used.
  if (!order || !cartCollectionId || !(cartOrders as Row[]).some((l) => l.order_id === orderId)) return null
  const collectionIds = [...new Set([cartCollectionId, ...(orderCollections as Row[]).map((l) => l.payment_collection_id as string)])]
  const payment = container.resolve(Modules.PAYMENT)
  const orderModule = container.resolve(Modules.ORDER)
  const [payments, sessions, transactions, changes, byCart, byCollection] = await Promise.all([
    payment.listPayments({ payment_collection_id: collectionIds } as never, { select: ["id", "canceled_at"] }),
    // Deleted ones too: a method the shopper left may still be one that authorizes later.
    payment.listPaymentSessions({ payment_collection_id: collectionIds } as never, { select: ["id", "provider_id", "status"], withDeleted: true }),
    orderModule.listOrderTransactions({ order_id: orderId }, { select: ["id"] }),
    orderModule.listOrderChanges({ order_id: orderId }, { select: ["id"] }),
    ledger.listPayLaterAttempts({ cart_id: cartId }, { select: ["id", "state"] }),
    ledger.listPayLaterAttempts({ payment_collection_id: collectionIds } as never, { select: ["id", "state"] }),
  ])
  const attempts = new Map([...byCart, ...byCollection].map((a) => [(a as Row).id as string, (a as Row).state as AttemptState]))
  return {
    cart_collection_id: cartCollectionId,
    decided: {
      order: {
        id: order.id,
        created_at: order.created_at,
        status: order.status,
        is_draft_order: !!order.is_draft_order,
        version: Number(order.version ?? 1),
        total: order.total ?? 0,
        fulfillments: ((order.fulfillments ?? []) as Row[]).length,
        transactions: transactions.length,
        changes: changes.length,
      },
      live_payments: payments.filter((p) => !p.canceled_at).length,
      sessions: sessions.map((s) => ({ paylater: PAYLATER_PROVIDER.test(s.provider_id), status: String(s.status) })),
      attempt_states: [...attempts.values()],
    },
  }
}

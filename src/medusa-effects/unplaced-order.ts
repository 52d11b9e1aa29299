import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { PAYLATER_PROVIDER } from "../medusa-records/session"

type Row = Record<string, any>

/**
 * Whether a cart's order lacks the stock reservation Medusa's completion makes for each item whose
 * inventory it manages. Medusa's completion reserves the stock before it records any payment, and
 * a completion that cannot (sold out) fails and deletes the order in its rollback; an order of a
 * cart without them was never placed by Medusa's own checks: its completion failed (or died) before
 * or at the reservation, and its rollback did not finish. Finishing it would sell stock that is not
 * there (issue 46). False when every managed item is reserved, none is managed, or the order was
 * fulfilled or canceled since.
 */
export async function stockNeverReserved(container: MedusaContainer, orderId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [order],
  } = await query.graph({ entity: "order", fields: ["id", "status", "items.id", "items.variant_id", "fulfillments.id"], filters: { id: orderId } })
  // Fulfilling or canceling an order consumes or frees its reservations: only a fresh order tells.
  if (!order || order.status === "canceled" || (order as Row).fulfillments?.length) return false
  const items = ((order as Row).items ?? []) as Row[]
  const variantIds = [...new Set(items.map((i) => i.variant_id as string | null).filter((id): id is string => !!id))]
  if (!variantIds.length) return false
  const variants = await container.resolve(Modules.PRODUCT).listProductVariants({ id: variantIds }, { select: ["id", "manage_inventory"] })
  const managed = new Set(variants.filter((v) => v.manage_inventory).map((v) => v.id))
  const managedItems = items.filter((i) => managed.has(i.variant_id))
  if (!managedItems.length) return false
  const reservations = await container.resolve(Modules.INVENTORY).listReservationItems({ line_item_id: managedItems.map((i) => i.id) }, { select: ["id", "line_item_id"] })
  const reserved = new Set(reservations.map((r) => r.line_item_id))
  return managedItems.some((i) => !reserved.has(i.id))
}

/** Why a completion's order is not an order: the leftovers this file and reconciliation/leftover-orders.ts finish. */
export type UnplacedWhy = "stock_never_reserved" | "no_money"

const UNPLACED_BECAUSE: Record<UnplacedWhy, string> = {
  stock_never_reserved: "failed before reserving its stock; its rollback is finished (the order removed, the cart open again), so the stock is never oversold",
  no_money:
    "died before any payment was authorized, and PayLater holds no money for the cart; its rollback is finished (the order removed, its stock released, the cart open again), so no order stands without payment",
}

/**
 * Finishes the rollback a failed completion left undone, as Medusa's own compensation would have:
 * the stock its order reserved released, the order's links to its cart and payment collection
 * dismissed, the cart open again, the order deleted. Its payment, if any, stays as it is: the cart's
 * next completion (Medusa's, with its checks) places it if the stock is back, or fails and lists the
 * payment as paid without an order. Only called where no completion of the cart can be running (the
 * caller holds the cart's lock, or is past the owner decision's bound, beyond Medusa's own lock's
 * lifetime). A promotion usage the dead run registered stays registered: whether it ran cannot be told.
 */
export async function undoUnplacedOrder(
  container: MedusaContainer,
  placed: { order_id: string; cart_id: string; payment_collection_id: string },
  why: UnplacedWhy = "stock_never_reserved"
): Promise<void> {
  const {
    data: [order],
  } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["id", "items.id"], filters: { id: placed.order_id } })
  // Medusa's completion reserves by the order's line items (reserveInventoryStep); none when it died
  // before. Released under the inventory items' locks, as Medusa's own reservation changes are.
  const itemIds = (((order as Row | undefined)?.items ?? []) as Row[]).map((i) => i.id as string)
  const inventory = container.resolve(Modules.INVENTORY)
  const reservations = itemIds.length ? await inventory.listReservationItems({ line_item_id: itemIds }, { select: ["id", "inventory_item_id"] }) : []
  if (reservations.length) {
    const lockKeys = [...new Set(reservations.map((r) => r.inventory_item_id))]
    await container.resolve(Modules.LOCKING).execute(lockKeys, () => inventory.deleteReservationItems(reservations.map((r) => r.id)))
  }
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  await link.dismiss([
    { [Modules.ORDER]: { order_id: placed.order_id }, [Modules.CART]: { cart_id: placed.cart_id } },
    { [Modules.ORDER]: { order_id: placed.order_id }, [Modules.PAYMENT]: { payment_collection_id: placed.payment_collection_id } },
  ])
  await container.resolve(Modules.CART).updateCarts(placed.cart_id, { completed_at: null })
  await container.resolve(Modules.ORDER).deleteOrders([placed.order_id])
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .warn(`PayLater: order ${logRef(placed.order_id)} of cart ${logRef(placed.cart_id)} was left by a cart completion that ${UNPLACED_BECAUSE[why]}.`)
}

/**
 * The cart's order, when it is a failed completion's leftover (still the cart's, its managed stock
 * never reserved, no capture on it), has its rollback finished (undoUnplacedOrder): true then.
 * False for any order Medusa's checks placed, or that is no longer the cart's. The caller holds the
 * cart's lock (no completion of it running).
 */
export async function undoIfNeverPlaced(
  container: MedusaContainer,
  placed: { order_id: string; cart_id: string; payment_collection_id: string }
): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: placed.cart_id } })
  if (!(links as Row[]).some((l) => l.order_id === placed.order_id)) return false
  const captures = await container.resolve(Modules.ORDER).listOrderTransactions({ order_id: placed.order_id, reference: "capture" }, { select: ["id"] })
  if (captures.length || !(await stockNeverReserved(container, placed.order_id))) return false
  // An order paid with a method that captures later (a manual provider) has no capture yet and is a
  // real order: only an order holding no live payment but PayLater's is a failed completion's leftover.
  if (await holdsOtherMethodPayment(container, placed.order_id, placed.payment_collection_id)) return false
  await undoUnplacedOrder(container, placed)
  return true
}

/** Whether a live payment of another method than PayLater is on any collection of the order or the cart's. */
async function holdsOtherMethodPayment(container: MedusaContainer, orderId: string, cartCollectionId: string): Promise<boolean> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } })
  const collectionIds = [...new Set([cartCollectionId, ...(data as Row[]).map((l) => l.payment_collection_id as string)])]
  const payments = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ payment_collection_id: collectionIds } as never, { select: ["id", "provider_id", "canceled_at"] })
  return payments.some((p) => !p.canceled_at && !PAYLATER_PROVIDER.test(p.provider_id))
}

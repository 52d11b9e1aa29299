import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

type Row = Record<string, any>

/** Cart and order of each payment collection: a cart's order (storefront), or the order itself (point of sale). */
export async function ownersOf(
  container: MedusaContainer,
  collectionIds: string[]
): Promise<Map<string, { cart_id: string | null; order_id: string | null }>> {
  const owners = new Map<string, { cart_id: string | null; order_id: string | null }>()
  if (!collectionIds.length) return owners
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: cartLinks } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id", "payment_collection_id"],
    filters: { payment_collection_id: collectionIds },
  })
  const cartIds = [...new Set((cartLinks as Row[]).map((l) => l.cart_id as string))]
  const { data: orderCarts } = cartIds.length
    ? await query.graph({ entity: "order_cart", fields: ["order_id", "cart_id"], filters: { cart_id: cartIds } })
    : { data: [] as Row[] }
  const orderOfCart = new Map((orderCarts as Row[]).map((l) => [l.cart_id as string, l.order_id as string]))
  const { data: orderLinks } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id", "payment_collection_id"],
    filters: { payment_collection_id: collectionIds },
  })
  for (const id of collectionIds) owners.set(id, { cart_id: null, order_id: null })
  for (const l of orderLinks as Row[]) owners.set(l.payment_collection_id, { cart_id: null, order_id: l.order_id })
  for (const l of cartLinks as Row[]) {
    owners.set(l.payment_collection_id, { cart_id: l.cart_id, order_id: orderOfCart.get(l.cart_id) ?? null })
  }
  return owners
}


/**
 * Whether a placed order's payment collection holds no live payment at all, of any provider: what
 * Medusa's own cart completion leaves when its process dies after creating the order and before
 * authorizing the payment (fault campaign, issue 32). Its cart's paid PayLater session is then the
 * order's payment, not an extra one.
 */
export async function collectionHoldsNoPayment(container: MedusaContainer, collectionId: string): Promise<boolean> {
  const payments = await container.resolve(Modules.PAYMENT).listPayments({ payment_collection_id: collectionId } as never, { select: ["id", "canceled_at"] })
  return !payments.some((p) => !p.canceled_at)
}

/** Every payment collection Medusa linked to the order (the cart's, and any the admin or point of sale added). */
export async function collectionsOfOrder(container: MedusaContainer, orderId: string): Promise<string[]> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } })
  return (data as Array<{ payment_collection_id: string }>).map((l) => l.payment_collection_id)
}

/** Counts read straight from the modules: the exactly-once assertions rest on these. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

export interface Ledger {
  orders: number
  payments: number
  captures: number
  refunds: number
}

export async function ledgerForCart(container: MedusaContainer, cartId: string): Promise<Ledger & { orderId: string | null }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  const { data: pcLinks } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["payment_collection_id"],
    filters: { cart_id: cartId },
  })
  const payment = container.resolve(Modules.PAYMENT)
  const collectionIds = pcLinks.map((l: { payment_collection_id: string }) => l.payment_collection_id)
  const payments = collectionIds.length
    ? await payment.listPayments({ payment_collection_id: collectionIds } as never, { relations: ["captures", "refunds"] })
    : []
  return {
    orderId: links[0]?.order_id ?? null,
    orders: links.length,
    payments: payments.length,
    captures: payments.reduce((n, p) => n + (p.captures?.length ?? 0), 0),
    refunds: payments.reduce((n, p) => n + (p.refunds?.length ?? 0), 0),
  }
}

export async function countAllOrders(container: MedusaContainer): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id"] })
  return data.length
}

/**
 * Polls until `check` holds (the webhook pipeline runs after a delay); fails with the last value.
 * Its deadline is on the monotonic clock: inside atStoreTime the store's `Date` stands still.
 */
export async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const until = performance.now() + timeoutMs
  let last = await read()
  while (!check(last)) {
    if (performance.now() > until) {
      throw new Error(`condition not reached; last value ${JSON.stringify(last)}`)
    }
    await new Promise((r) => setTimeout(r, 250))
    last = await read()
  }
  return last
}

import type { SandboxContext } from "./context"
import { json, type Reply } from "./http"
import { STATUS_MESSAGE } from "./orders"

/**
 * Check Payment Status. An unknown order id answers like a link nobody opened (status 0): PayLater
 * publishes no "not found" body for this call, and "the shopper did not proceed" is the honest
 * reading of an id the service has never seen.
 */
export function handleStatus(ctx: SandboxContext, query: URLSearchParams): Reply {
  const orderId = query.get("order_id")?.trim()
  if (!orderId) return json(400, { error: "Order ID is required" })
  const order = ctx.store.orders.get(orderId)
  if (order) ctx.orders.expireIfDue(order)
  if (!order || order.status === 0) return json(200, { message: STATUS_MESSAGE[0], status: 0 })
  return json(200, {
    payLaterOrderId: order.payLaterOrderId,
    message: STATUS_MESSAGE[order.status],
    merchantReference: order.orderId,
    status: order.status,
  })
}

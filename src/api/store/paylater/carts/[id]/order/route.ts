import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/**
 * GET /store/paylater/carts/:id/order: the order a completed cart became, so a storefront that still
 * holds the cart (PayLater's webhook placed the order while the shopper was away) can send the
 * shopper to its confirmation instead of the checkout (docs/storefront-dtc-starter.md, step 7b).
 * `{ order_id }`, or 404 while the cart is not an order. Read from Medusa's own link (order ↔ cart);
 * it tells nothing the cart id does not already open (Medusa's store API shows the cart to anyone
 * holding its id). A /store route: the publishable key is required.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const {
    data: [link],
  } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: req.params.id },
  })
  res.setHeader("Cache-Control", "no-store")
  if (!link?.order_id) {
    res.status(404).json({ type: "not_found", message: "This cart is not an order." })
    return
  }
  res.json({ order_id: link.order_id })
}

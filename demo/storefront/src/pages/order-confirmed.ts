/**
 * `/order/confirmed/:id`: where the plugin's return route sends the shopper once the order exists.
 *
 * The page reads the order from Medusa (guest orders can be read by id) rather than trusting the
 * URL: an id that is not an order shows "not found", never a thank-you.
 */
import type { HttpTypes } from "@medusajs/types"
import type { PageContext } from "../router"
import { cartStorage } from "../store"
import { h, money, showPage } from "../ui"

const ORDER_FIELDS =
  "id,display_id,email,status,total,currency_code,created_at,*items,*payment_collections,*payment_collections.payments"

/** PayLater's own reference for the payment, recorded by the provider once PayLater confirmed it. */
export function payLaterReference(order: HttpTypes.StoreOrder): string | null {
  for (const collection of order.payment_collections ?? []) {
    for (const payment of collection.payments ?? []) {
      const ref = payment.data?.paylater_ref
      if (payment.provider_id.startsWith("pp_paylater") && typeof ref === "string") return ref
    }
  }
  return null
}

export async function renderOrderConfirmed({ sdk, params }: PageContext): Promise<void> {
  const order = await sdk.store.order
    .retrieve(params.id, { fields: ORDER_FIELDS })
    .then((r) => r.order)
    .catch(() => null)
  if (!order) {
    showPage("Order not found", h("h1", {}, "Order not found"), h("p", {}, h("a", { href: "/" }, "Back to the shop")))
    return
  }
  // The cart became this order: the next purchase starts a new one.
  cartStorage.clear()
  const reference = payLaterReference(order)

  showPage(
    "Thank you",
    h("h1", {}, "Thank you for your order"),
    h(
      "section",
      { class: "card summary", "aria-labelledby": "order-title" },
      h(
        "div",
        { class: "alert success", role: "status" },
        reference ? "Paid with PayLater. Your order is placed." : "Your order is placed. PayLater is confirming the payment."
      ),
      h("h2", { id: "order-title" }, `Order #${order.display_id}`),
      h(
        "dl",
        {},
        h("dt", {}, "Order id"),
        h("dd", { id: "order-id" }, order.id),
        h("dt", {}, "PayLater reference"),
        h("dd", { id: "paylater-reference" }, reference ?? "Pending confirmation from PayLater"),
        h("dt", { class: "total" }, "Total"),
        h("dd", { class: "total", id: "order-total" }, money(order.total, order.currency_code))
      )
    ),
    h("p", {}, h("a", { href: "/" }, "Continue shopping"))
  )
}


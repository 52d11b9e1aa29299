/** The order summary shown beside the checkout and on the payment error page. */
import type { HttpTypes } from "@medusajs/types"
import { h, money } from "./ui"

export function cartSummary(cart: HttpTypes.StoreCart): HTMLElement {
  const currency = cart.currency_code
  return h(
    "aside",
    { class: "card summary", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title" }, "Your order"),
    h(
      "ul",
      {},
      ...(cart.items ?? []).map((item) =>
        h(
          "li",
          {},
          h("span", {}, `${item.quantity} × ${item.product_title ?? item.title}`, h("br"), h("small", { class: "muted" }, item.variant_title ?? "")),
          h("span", { class: "price" }, money(item.total ?? item.unit_price * item.quantity, currency))
        )
      )
    ),
    h(
      "dl",
      {},
      h("dt", {}, "Items"),
      h("dd", {}, money(cart.item_total, currency)),
      h("dt", {}, "Delivery"),
      h("dd", {}, cart.shipping_methods?.length ? money(cart.shipping_total, currency) : "Choose below"),
      h("dt", { class: "total" }, "Total"),
      h("dd", { class: "total", id: "cart-total" }, money(cart.total, currency))
    )
  )
}

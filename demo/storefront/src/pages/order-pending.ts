/**
 * `/order/pending`: PayLater has not decided yet (the shopper came back before PayLater
 * confirmed, or the confirmation is still on its way). The page waits for the order.
 *
 * Each check asks Medusa to complete the cart, which is Medusa's standard storefront step and safe
 * to repeat: once PayLater confirms (or its webhook has already placed the order) it answers with
 * the order; until then it refuses, and the PayLater session on the cart says whether the payment
 * is still open or has failed.
 */
import { waitForPendingOrder } from "medusa-payment-paylater-storefront"
import type { PageContext } from "../router"
import { cartStorage } from "../store"
import { h, showPage } from "../ui"

export async function renderOrderPending({ sdk, query }: PageContext): Promise<void> {
  // The return route names no cart (docs/security.md): the one this browser is checking out.
  const cartId = query.get("cart_id") ?? cartStorage.get()
  if (!cartId) {
    showPage("Order status", h("h1", {}, "Order status"), h("p", {}, "This link is missing its cart. ", h("a", { href: "/" }, "Back to the shop")))
    return
  }
  const status = h("p", { id: "pending-status", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Waiting for PayLater to confirm your payment…")
  const again = h("button", { type: "button", id: "check-again", class: "secondary", hidden: true }, "Check again")
  showPage(
    "Confirming your payment",
    h("h1", {}, "Confirming your payment"),
    h("section", { class: "card" }, status, h("p", { class: "muted" }, "You can keep this page open; it updates by itself. Please do not pay twice."), again)
  )

  // The storefront kit's wait: completes the cart (safe to repeat) with growing pauses, 10 minutes at most.
  const poll = async () => {
    const outcome = await waitForPendingOrder(sdk, cartId)
    if (outcome?.kind === "order") {
      window.location.replace(`/order/confirmed/${encodeURIComponent(outcome.orderId)}`)
    } else if (outcome?.kind === "missing") {
      status.textContent = "We could not find this checkout. If you paid, your order confirmation has the details."
    } else if (outcome?.kind === "failed") {
      const params = new URLSearchParams({ step: "payment", paylater_error: outcome.reason })
      window.location.replace(`/checkout?${params}`)
    } else {
      status.textContent = "PayLater has not confirmed the payment yet. If you approved it, your order is placed as soon as PayLater confirms; check again in a moment."
      again.hidden = false
    }
  }
  again.addEventListener("click", () => {
    again.hidden = true
    status.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), "Checking again…")
    void poll()
  })
  void poll()
}

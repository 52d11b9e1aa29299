/**
 * `/checkout?step=payment&paylater_error=<reason>&cart_id=<id>`: PayLater did not take the payment.
 *
 * The plugin's return route sends the shopper here after PayLater's page ended without payment.
 * The cart is untouched, so "Try again" only needs a new PayLater session (a new payment link); the
 * details the shopper already entered stay on the cart.
 */
import { cartSummary } from "../cart-summary"
import { createPayLaterLink, goToPayLater } from "../paylater/link"
import { failureMessage, paymentWasTaken } from "../paylater/messages"
import type { PageContext } from "../router"
import { cartStorage, errorMessage, retrieveCart } from "../store"
import { alertBox, busy, h, showPage } from "../ui"
import { cartNotFound } from "./checkout"

export async function renderPaymentError({ sdk, query }: PageContext): Promise<void> {
  const cartId = query.get("cart_id") ?? cartStorage.get()
  const cart = cartId ? await retrieveCart(sdk, cartId).catch(() => null) : null
  if (!cart || cart.completed_at) {
    cartStorage.clear()
    return cartNotFound()
  }
  cartStorage.set(cart.id)

  const reason = query.get("paylater_error")
  const { title, body } = failureMessage(reason)
  const retryError = alertBox("error", "retry-error")
  const retry = h("button", { type: "button", id: "retry-paylater" }, "Try again with PayLater")
  retry.addEventListener("click", async () => {
    retryError.textContent = ""
    const done = busy(retry, "Taking you to PayLater…")
    try {
      goToPayLater(await createPayLaterLink(sdk, cart))
    } catch (e) {
      retryError.textContent = errorMessage(e)
      done()
    }
  })

  // Paid without an order: the refund is on its way, so no "try again" (it would take the money twice).
  const taken = paymentWasTaken(reason)
  const actions = taken
    ? [h("a", { class: "button secondary", href: "/" }, "Back to the shop")]
    : [retry, h("a", { class: "button secondary", href: `/checkout?cart_id=${encodeURIComponent(cart.id)}` }, "Change details")]
  const heading = taken ? "Order not placed" : "Payment not completed"
  showPage(
    heading,
    h("h1", {}, heading),
    h(
      "div",
      { class: "layout" },
      h(
        "section",
        { class: "card" },
        h("div", { class: "alert error", id: "paylater-error", role: "alert" }, h("strong", {}, title), h("br"), body),
        retryError,
        h("div", { class: "actions" }, ...actions)
      ),
      cartSummary(cart)
    )
  )
}

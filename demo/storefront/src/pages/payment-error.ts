/**
 * `/checkout?step=payment&paylater_error=<reason>`: PayLater did not take the payment (the cart is
 * the one this browser keeps; the return route names none).
 *
 * The plugin's return route sends the shopper here after PayLater's page ended without payment.
 * The cart is untouched, so "Try again" only needs a new PayLater session (a new payment link); the
 * details the shopper already entered stay on the cart.
 */
import { failureMessage, paymentWasTaken, readPayLaterReturn, startLinkCheckout, toCheckoutError } from "medusa-payment-paylater-storefront"
import { cartSummary } from "../cart-summary"
import type { PageContext } from "../router"
import { cartStorage, retrieveCart } from "../store"
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

  // The query string only picks which message to show; it is never shown as is.
  const reason = readPayLaterReturn(query).failure
  const message = failureMessage(reason)
  const retryError = alertBox("error", "retry-error")
  const retry = h("button", { type: "button", id: "retry-paylater" }, "Try again with PayLater")
  retry.addEventListener("click", async () => {
    retryError.textContent = ""
    const done = busy(retry, "Taking you to PayLater…")
    try {
      window.location.assign((await startLinkCheckout(sdk, cart)).url)
    } catch (e) {
      retryError.textContent = toCheckoutError(e).message
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
        h("div", { class: "alert error", id: "paylater-error", role: "alert" }, message),
        retryError,
        h("div", { class: "actions" }, ...actions)
      ),
      cartSummary(cart)
    )
  )
}

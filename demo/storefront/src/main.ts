/**
 * The demo storefront's entry point: read the config, pick the page for the current path, render.
 *
 * Pages, and what sends the shopper there:
 *   /                                   catalogue
 *   /products/:handle                   variant choice, creates the cart
 *   /checkout                           details + "Pay with PayLater" or "Pay with the PayLater app"
 *   /checkout/request-to-pay?cart_id=…&session_id=…   Request to Pay waiting screen
 *   /checkout?step=payment&paylater_error=…            PayLater did not take the payment (return route)
 *   /order/confirmed/:id                order placed (return route)
 *   /order/pending                      PayLater has not decided yet (return route)
 */
import { readConfig } from "./config"
import { renderCheckout } from "./pages/checkout"
import { renderOrderConfirmed } from "./pages/order-confirmed"
import { renderOrderPending } from "./pages/order-pending"
import { renderPaymentError } from "./pages/payment-error"
import { renderProduct } from "./pages/product"
import { renderProducts } from "./pages/products"
import { WAITING_SCREEN_PATH, renderRequestToPayWaiting } from "./pages/request-to-pay"
import { match, type Route } from "./router"
import { createSdk, errorMessage } from "./store"
import { h, showPage } from "./ui"

const routes: Route[] = [
  { pattern: /^\/$/, render: renderProducts },
  { pattern: /^\/products\/(?<handle>[^/]+)$/, render: renderProduct },
  {
    pattern: /^\/checkout$/,
    render: (context) =>
      context.query.has("paylater_error") ? renderPaymentError(context) : renderCheckout(context),
  },
  { pattern: /^\/order\/confirmed\/(?<id>[^/]+)$/, render: renderOrderConfirmed },
  { pattern: /^\/order\/pending$/, render: renderOrderPending },
  { pattern: new RegExp(`^${WAITING_SCREEN_PATH}$`), render: renderRequestToPayWaiting },
]

async function start(): Promise<void> {
  const sdk = createSdk(readConfig())
  const found = match(routes, window.location.pathname)
  if (!found) {
    showPage("Not found", h("h1", {}, "Page not found"), h("p", {}, h("a", { href: "/" }, "Back to the shop")))
    return
  }
  await found.route.render({ sdk, params: found.params, query: new URLSearchParams(window.location.search) })
}

start().catch((error: unknown) => {
  console.error(error)
  showPage(
    "Something went wrong",
    h("h1", {}, "Something went wrong"),
    h("p", { class: "alert error", role: "alert", id: "page-error" }, errorMessage(error)),
    h("p", {}, h("a", { href: "/" }, "Back to the shop"))
  )
})

/**
 * `/order/pending?cart_id=…`: PayLater has not decided yet (the shopper came back before PayLater
 * confirmed, or the confirmation is still on its way). The page waits for the order.
 *
 * Each check asks Medusa to complete the cart, which is Medusa's standard storefront step and safe
 * to repeat: once PayLater confirms (or its webhook has already placed the order) it answers with
 * the order; until then it refuses, and the PayLater session on the cart says whether the payment
 * is still open or has failed.
 */
import type { HttpTypes } from "@medusajs/types"
import { PAYLATER_LINK_PROVIDER_ID } from "../paylater/link"
import type { PageContext } from "../router"
import { retrieveCart, type Sdk } from "../store"
import { h, showPage } from "../ui"

/** Waits grow from 2 s to 15 s; after about 10 minutes the page stops and offers a manual check. */
const DELAYS_MS = [2000, 2000, 3000, 5000, 8000, 15000]
const GIVE_UP_AFTER_MS = 10 * 60 * 1000

type Outcome =
  | { kind: "order"; orderId: string }
  | { kind: "failed"; reason: string }
  | { kind: "waiting" }
  | { kind: "missing" }

function payLaterSession(cart: HttpTypes.StoreCart): HttpTypes.StorePaymentSession | undefined {
  return cart.payment_collection?.payment_sessions?.find((s) => s.provider_id === PAYLATER_LINK_PROVIDER_ID)
}

async function check(sdk: Sdk, cartId: string): Promise<Outcome> {
  const result = await sdk.store.cart.complete(cartId).catch(() => null)
  if (result?.type === "order") return { kind: "order", orderId: result.order.id }

  // Not an order yet: did the payment fail, or is it still open?
  const cart = await retrieveCart(sdk, cartId).catch((e: { status?: number }) => {
    if (e?.status === 404) return null
    throw e
  })
  if (!cart) return { kind: "missing" }
  const session = payLaterSession(cart)
  const data = (session?.data ?? {}) as Record<string, unknown>
  if (!session) return { kind: "failed", reason: "error" }
  if (session.status === "error" || data.paylater_status === "failed") {
    return { kind: "failed", reason: typeof data.paylater_failure_reason === "string" ? data.paylater_failure_reason : "declined" }
  }
  return { kind: "waiting" }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function renderOrderPending({ sdk, query }: PageContext): Promise<void> {
  const cartId = query.get("cart_id")
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

  const poll = async () => {
    const started = Date.now()
    for (let attempt = 0; Date.now() - started < GIVE_UP_AFTER_MS; attempt++) {
      // A network hiccup is not an answer: keep waiting.
      const outcome = await check(sdk, cartId).catch((): Outcome => ({ kind: "waiting" }))
      if (outcome.kind === "order") {
        window.location.replace(`/order/confirmed/${encodeURIComponent(outcome.orderId)}`)
        return
      }
      if (outcome.kind === "missing") {
        status.textContent = "We could not find this checkout. If you paid, your order confirmation has the details."
        return
      }
      if (outcome.kind === "failed") {
        const params = new URLSearchParams({ step: "payment", paylater_error: outcome.reason, cart_id: cartId })
        window.location.replace(`/checkout?${params}`)
        return
      }
      await sleep(DELAYS_MS[Math.min(attempt, DELAYS_MS.length - 1)])
    }
    status.textContent = "PayLater has not confirmed the payment yet. If you approved it, your order is placed as soon as PayLater confirms; check again in a moment."
    again.hidden = false
  }
  again.addEventListener("click", () => {
    again.hidden = true
    status.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), "Checking again…")
    void poll()
  })
  void poll()
}

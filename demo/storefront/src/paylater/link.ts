/**
 * PayLater's hosted payment link, from the storefront's side. This is all a storefront needs:
 *
 *   1. Create a PayLater payment session for the cart (one SDK call).
 *   2. Send the shopper to `payment_link_url`, the PayLater page stored in the session's data.
 *   3. PayLater sends the shopper back to the plugin's return route on the Medusa server, which
 *      confirms the payment with PayLater, places the order and redirects to one of the
 *      storefront's pages: /order/confirmed/:id, /checkout?step=payment&paylater_error=... or
 *      /order/pending?cart_id=... (see ../pages).
 *
 * The storefront never decides that a payment succeeded: only the server does, after asking
 * PayLater. Errors the provider raises (an amount outside PayLater's limits, a non-QAR cart, PayLater
 * being unreachable) arrive as the SDK's error with a message meant for the shopper.
 */
import type { HttpTypes } from "@medusajs/types"
import type { Sdk } from "../store"

/** `pp_<provider identifier>_<id in medusa-config>`, as Medusa names payment providers. */
export const PAYLATER_LINK_PROVIDER_ID = "pp_paylater_paylater"

/** Whether the cart's region offers PayLater (a merchant enables it per region in the admin). */
export async function isPayLaterOffered(sdk: Sdk, regionId: string): Promise<boolean> {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: regionId })
  return payment_providers.some((p) => p.id === PAYLATER_LINK_PROVIDER_ID)
}

/**
 * Starts a new PayLater payment for the cart and returns the URL of PayLater's page. Each call makes
 * a new session (Medusa replaces the previous one), which is exactly what "try again" needs.
 *
 * The cart must already have its email, address and shipping method: changing the cart afterwards
 * changes its total, and Medusa then drops the session (the link would no longer match the cart).
 */
export async function createPayLaterLink(sdk: Sdk, cart: HttpTypes.StoreCart): Promise<string> {
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: PAYLATER_LINK_PROVIDER_ID,
  })
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === PAYLATER_LINK_PROVIDER_ID)
  const url = session?.data?.payment_link_url
  if (typeof url !== "string" || !url) {
    throw new Error("PayLater did not return a payment page. Please try again.")
  }
  return url
}

/** Sends the shopper to PayLater. `assign` keeps the checkout in history for the back button. */
export function goToPayLater(url: string): void {
  window.location.assign(url)
}

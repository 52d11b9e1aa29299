import { PayLaterCheckoutError, toCheckoutError } from "./errors"
import { SHOPPER_MESSAGES } from "./messages"
import {
  PAYLATER_LINK_PROVIDER_ID,
  PAYLATER_RTP_PROVIDER_ID,
  type CartLike,
  type PayLaterSdk,
  type PaymentSessionLike,
} from "./sdk"

/**
 * Starting a PayLater payment from a storefront. Each start creates a new payment session (Medusa
 * replaces the cart's previous one), which is what "try again" needs. The cart must already hold
 * its email, address and delivery method: changing the cart afterwards changes its total, and
 * Medusa then drops the session. The storefront never decides that a payment succeeded; the
 * plugin's server asks PayLater.
 */

export interface PayLaterAvailability {
  link: boolean
  requestToPay: boolean
}

/** Which PayLater methods the cart's region offers (a merchant enables them per region). */
export async function payLaterAvailability(sdk: PayLaterSdk, regionId: string): Promise<PayLaterAvailability> {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: regionId })
  const ids = new Set(payment_providers.map((p) => p.id))
  return { link: ids.has(PAYLATER_LINK_PROVIDER_ID), requestToPay: ids.has(PAYLATER_RTP_PROVIDER_ID) }
}

export interface ShopperContact {
  /** As typed: "5111 8021", "+974 5111 8021"...; the server normalises and checks it. */
  mobileNumber?: string | null
  /**
   * Defaults to the cart's email. The store API ignores it: its shopper look-up uses the cart's own
   * email, so save the shopper's email on the cart before a Request to Pay (docs/security.md).
   */
  email?: string | null
}

async function startSession(
  sdk: PayLaterSdk,
  cart: CartLike,
  providerId: string,
  data: Record<string, unknown>
): Promise<PaymentSessionLike> {
  let session: PaymentSessionLike | undefined
  try {
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, data })
    session = payment_collection.payment_sessions?.find((s) => s.provider_id === providerId)
  } catch (error) {
    throw toCheckoutError(error)
  }
  if (!session) {
    throw new PayLaterCheckoutError("no_link", SHOPPER_MESSAGES.no_link.en)
  }
  return session
}

function contactData(cart: CartLike, contact: ShopperContact): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  const mobile = contact.mobileNumber?.trim()
  const email = (contact.email ?? cart.email)?.trim()
  if (mobile) data.mobile_number = mobile
  if (email) data.email = email
  return data
}

export interface LinkCheckout {
  /** PayLater's hosted page. Send the shopper there with the URL untouched (its query matters). */
  url: string
  session: PaymentSessionLike
}

/**
 * Creates the PayLater session for the cart and returns the hosted page's URL. `contact` is only
 * needed when the merchant turned on the shopper look-up for links (`eligibilityCheck: "all"`).
 */
export async function startLinkCheckout(sdk: PayLaterSdk, cart: CartLike, contact: ShopperContact = {}): Promise<LinkCheckout> {
  const session = await startSession(sdk, cart, PAYLATER_LINK_PROVIDER_ID, contactData(cart, contact))
  const url = session.data?.payment_link_url
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) {
    throw new PayLaterCheckoutError("no_link", SHOPPER_MESSAGES.no_link.en)
  }
  return { url, session }
}

/** The public data the plugin keeps on a Request to Pay session (nothing secret, safe to show). */
export interface RequestToPaySessionData {
  /** "974*****021": the waiting screen shows it. */
  mobile_number_masked?: string
  /** ISO instant the request stops being payable. */
  expires_at?: string
  /** What PayLater was asked for, two decimals, e.g. "360.00". */
  amount?: string
  /** The reference the shopper sees next to the request in the PayLater app. */
  paylater_order_id?: string
  /** How long the request stays payable, in minutes. */
  paylater_expiry_minutes?: number
}

export function requestToPayData(session: PaymentSessionLike | undefined | null): RequestToPaySessionData {
  const data = (session?.data ?? {}) as Record<string, unknown>
  const text = (key: keyof RequestToPaySessionData) => (typeof data[key] === "string" ? (data[key] as string) : undefined)
  return {
    mobile_number_masked: text("mobile_number_masked"),
    expires_at: text("expires_at"),
    amount: text("amount"),
    paylater_order_id: text("paylater_order_id"),
    paylater_expiry_minutes: typeof data.paylater_expiry_minutes === "number" ? data.paylater_expiry_minutes : undefined,
  }
}

export interface StartedRequestToPay {
  session: PaymentSessionLike
  data: RequestToPaySessionData
}

/**
 * Pushes a payment request for the cart's total to the PayLater app of `contact.mobileNumber`.
 * Before the push the plugin looks the shopper up (mobile + the cart's email): no account, or too
 * little spending room, fails at once with a PayLaterCheckoutError the shopper can read.
 * Then poll the waiting state with `pollRequestToPay`; never complete the cart yourself.
 */
export async function startRequestToPay(
  sdk: PayLaterSdk,
  cart: CartLike,
  contact: ShopperContact & { mobileNumber: string }
): Promise<StartedRequestToPay> {
  if (!contact.mobileNumber?.trim()) {
    throw new PayLaterCheckoutError("invalid_mobile", SHOPPER_MESSAGES.invalid_mobile.en)
  }
  const session = await startSession(sdk, cart, PAYLATER_RTP_PROVIDER_ID, contactData(cart, contact))
  return { session, data: requestToPayData(session) }
}

/** The shipping address's phone, a sensible first guess for the PayLater mobile number. */
export function suggestedMobileNumber(cart: CartLike | null | undefined): string {
  return cart?.shipping_address?.phone?.trim() ?? ""
}

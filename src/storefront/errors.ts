import { SHOPPER_MESSAGES, type Locale, type ShopperMessageKey } from "./messages"

/**
 * Why a PayLater payment could not be started, sorted by what the shopper can do about it. The
 * plugin's server answers in English (the JS SDK keeps only that message and the HTTP status); the
 * kit recognises its own sentences and gives the same message in Arabic.
 */

export type CheckoutErrorCode =
  | "not_eligible"
  | "email_required"
  | "lookup_unavailable"
  | "too_many_requests"
  | "amount_out_of_range"
  | "currency"
  | "invalid_mobile"
  | "duplicate"
  | "try_later"
  | "unconfirmed"
  | "unavailable"
  | "no_link"
  | "already_placed"
  | "paid_not_placed"
  | "network"
  | "unknown"

/**
 * already_placed: the cart is an order already (a webhook placed it while the page still showed the
 * review step): show its confirmation (`orderId`), never take another payment.
 * refused: the details or the order cannot be paid with PayLater as they are (correct them or pick
 * another method); try_later: PayLater could not do it right now; network: the store did not answer.
 */
export type CheckoutErrorKind = "already_placed" | "refused" | "try_later" | "network"

const KIND: Record<CheckoutErrorCode, CheckoutErrorKind> = {
  not_eligible: "refused",
  email_required: "refused",
  lookup_unavailable: "try_later",
  amount_out_of_range: "refused",
  currency: "refused",
  invalid_mobile: "refused",
  duplicate: "refused",
  unknown: "refused",
  try_later: "try_later",
  too_many_requests: "try_later",
  unconfirmed: "try_later",
  unavailable: "try_later",
  no_link: "try_later",
  network: "network",
  already_placed: "already_placed",
  // The attempt this start would replace was paid but its cart could not become an order: it is
  // refunded; paying again is not what the shopper should do.
  paid_not_placed: "refused",
}

export class PayLaterCheckoutError extends Error {
  readonly name = "PayLaterCheckoutError"
  readonly kind: CheckoutErrorKind

  constructor(
    readonly code: CheckoutErrorCode,
    /** The English text to show (the server's own when it had one, e.g. with the order's range). */
    message: string,
    /** HTTP status of the store's answer; null when there was none. */
    readonly status: number | null = null,
    /** For `already_placed`: the order to show (its confirmation page), as the store named it. */
    readonly orderId: string | null = null
  ) {
    super(message)
    this.kind = KIND[code]
  }

  /** The message for the shopper's language. English keeps the server's exact words. */
  messageIn(locale: Locale): string {
    if (locale === "en") return this.message
    return SHOPPER_MESSAGES[this.code as ShopperMessageKey]?.[locale] ?? SHOPPER_MESSAGES.unknown[locale]
  }
}

/** The plugin's sentences, by their opening words (some go on with the order's own numbers). */
const OPENINGS: Array<[string, CheckoutErrorCode]> = [
  [SHOPPER_MESSAGES.not_eligible.en, "not_eligible"],
  [SHOPPER_MESSAGES.email_required.en, "email_required"],
  [SHOPPER_MESSAGES.lookup_unavailable.en, "lookup_unavailable"],
  [SHOPPER_MESSAGES.too_many_requests.en, "too_many_requests"],
  [SHOPPER_MESSAGES.duplicate.en, "duplicate"],
  [SHOPPER_MESSAGES.try_later.en, "try_later"],
  [SHOPPER_MESSAGES.unconfirmed.en, "unconfirmed"],
  [SHOPPER_MESSAGES.unavailable.en, "unavailable"],
  [SHOPPER_MESSAGES.paid_not_placed.en, "paid_not_placed"],
  ["PayLater can pay for orders between", "amount_out_of_range"],
  ["The order amount is outside the range PayLater accepts", "amount_out_of_range"],
  ["PayLater accepts payments in Qatari riyal", "currency"],
  ["The mobile number must be a Qatar mobile number", "invalid_mobile"],
  ["Request to Pay needs the shopper's PayLater mobile number", "invalid_mobile"],
]

/** Any error from the SDK (or the kit) → PayLaterCheckoutError. */
export function toCheckoutError(error: unknown): PayLaterCheckoutError {
  if (error instanceof PayLaterCheckoutError) return error
  const status = (error as { status?: unknown } | null)?.status
  const message = error instanceof Error ? error.message : ""
  if (typeof status !== "number") {
    return new PayLaterCheckoutError("network", SHOPPER_MESSAGES.network.en)
  }
  if (message.startsWith(SHOPPER_MESSAGES.already_placed.en)) {
    // The store names the order after the sentence (the SDK keeps only the message): "… (order_…)".
    const orderId = /\((order_[A-Za-z0-9]+)\)\s*$/.exec(message)?.[1] ?? null
    return new PayLaterCheckoutError("already_placed", SHOPPER_MESSAGES.already_placed.en, status, orderId)
  }
  const known = OPENINGS.find(([opening]) => message.startsWith(opening))
  if (known) {
    return new PayLaterCheckoutError(known[1], message, status)
  }
  if (status === 429) {
    return new PayLaterCheckoutError("too_many_requests", SHOPPER_MESSAGES.too_many_requests.en, status)
  }
  if (status === 422 || status >= 500) {
    return new PayLaterCheckoutError("unavailable", message || SHOPPER_MESSAGES.unavailable.en, status)
  }
  return new PayLaterCheckoutError("unknown", message || SHOPPER_MESSAGES.unknown.en, status)
}

import { SHOPPER_MESSAGES, type Locale } from "./messages"

/**
 * What the plugin's return route puts in the storefront URLs it redirects to (the default
 * templates: `/checkout?step=payment&paylater_error=<reason>&cart_id=<id>` after a failure,
 * `/order/pending?cart_id=<id>` while PayLater has not decided, `/order/confirmed/<order_id>` after
 * a payment). The query string is editable by anyone, so it is only ever read as a hint of which
 * message to show; the order and the payment state always come from the server.
 */

/** `paid_not_placed`: PayLater has the money but the order could not be placed; it is refunded. */
export type PayLaterFailureReason = "declined" | "expired" | "abandoned" | "error" | "paid_not_placed"

const REASONS: readonly PayLaterFailureReason[] = ["declined", "expired", "abandoned", "error", "paid_not_placed"]

export interface PayLaterReturn {
  /** A known failure reason, "unknown" for anything else in `paylater_error`, null when absent. */
  failure: PayLaterFailureReason | "unknown" | null
  cartId: string | null
}

export function readPayLaterReturn(search: string | URLSearchParams): PayLaterReturn {
  const params = typeof search === "string" ? new URLSearchParams(search.startsWith("?") ? search.slice(1) : search) : search
  const raw = params.get("paylater_error")
  const cartId = params.get("cart_id")
  return {
    failure: raw === null ? null : (REASONS as readonly string[]).includes(raw) ? (raw as PayLaterFailureReason) : "unknown",
    cartId: cartId && /^[A-Za-z0-9_-]{1,100}$/.test(cartId) ? cartId : null,
  }
}

/** A failure whose money PayLater took: the page must not offer to pay again (it would pay twice). */
export function paymentWasTaken(reason: PayLaterFailureReason | "unknown" | null): boolean {
  return reason === "paid_not_placed"
}

/** The shopper's message for a failure reason; unknown text gets the generic wording, never itself. */
export function failureMessage(reason: PayLaterFailureReason | "unknown" | null, locale: Locale = "en"): string {
  return reason && reason !== "unknown" ? SHOPPER_MESSAGES[reason][locale] : SHOPPER_MESSAGES.unknown[locale]
}

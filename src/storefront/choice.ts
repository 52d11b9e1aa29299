import type { Bilingual, Locale } from "./messages"
import type { CartLike, PaymentSessionLike } from "./sdk"

/**
 * Which PayLater method the shopper chose, for a checkout whose payment step creates no session
 * (the PayLater components create it at the last step). Display only: what the shopper sees
 * selected and what the review step's sentence names. No payment is ever decided from it.
 */

/** Both PayLater methods' provider ids start with it (`pp_paylater_…`, `pp_paylater-rtp_…`). */
export function isPayLaterProvider(providerId: string | null | undefined): providerId is string {
  return typeof providerId === "string" && providerId.startsWith("pp_paylater")
}

export function isRequestToPayProvider(providerId: string | null | undefined): providerId is string {
  return typeof providerId === "string" && providerId.startsWith("pp_paylater-rtp_")
}

/** The cart's PayLater session, whatever its state (Medusa keeps one session per collection). */
export function payLaterSessionOf(cart: Pick<CartLike, "payment_collection"> | null | undefined): PaymentSessionLike | undefined {
  return cart?.payment_collection?.payment_sessions?.find((s) => isPayLaterProvider(s.provider_id)) ?? undefined
}

/**
 * The PayLater method to show selected: the `paylater` query parameter the checkout put in the URL,
 * else the method of the cart's PayLater session, e.g. back on the payment step after PayLater
 * declined, so the shopper does not have to pick it again. Null when PayLater was not chosen.
 */
export function payLaterChoice(search: URLSearchParams | string | null | undefined, cart?: Pick<CartLike, "payment_collection"> | null): string | null {
  const params = typeof search === "string" ? new URLSearchParams(search.startsWith("?") ? search.slice(1) : search) : search
  const chosen = params?.get("paylater")
  if (isPayLaterProvider(chosen)) return chosen
  return payLaterSessionOf(cart)?.provider_id ?? null
}

/** What the PayLater components' buttons say (the components and the review step share it). */
export const PAY_BUTTON_TEXT = {
  link: { en: "Pay with PayLater", ar: "ادفع عبر PayLater" },
  requestToPay: { en: "Send the request to my app", ar: "أرسل الطلب إلى تطبيقي" },
} satisfies Record<string, Bilingual>

/**
 * The text of the button that pays with this PayLater method, for a sentence such as "By clicking
 * the … button"; null for any other provider.
 */
export function payLaterButtonText(providerId: string | null | undefined, locale: Locale = "en"): string | null {
  if (isRequestToPayProvider(providerId)) return PAY_BUTTON_TEXT.requestToPay[locale]
  if (isPayLaterProvider(providerId)) return PAY_BUTTON_TEXT.link[locale]
  return null
}

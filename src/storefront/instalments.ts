import type { Locale } from "./messages"
import type { PayLaterSdk } from "./sdk"

/**
 * The instalment plans the plugin's GET /store/paylater/instalments answers for an amount or a cart,
 * and the sentences a product, cart or checkout page shows for them ("4 payments of 90.00 QAR",
 * "available for orders from 300.00 QAR").
 */

/** What GET /store/paylater/instalments answers; amounts are two-decimal QAR text. */
export interface InstalmentOffer {
  amount: string
  currency_code: string
  /** The outlet's range: "available for orders from 300 QAR". */
  min_amount: string
  max_amount: string
  available: boolean
  /** Why PayLater cannot pay for this amount, or null. */
  reason: "below_minimum" | "above_maximum" | "currency" | null
  /** Empty when not available; the first instalment carries any remainder. */
  plans: Array<{
    count: number
    instalment_amount: string
    first_amount: string
    interval_days: number
    instalments: Array<{ number: number; amount: string; due_after_days: number }>
  }>
}

export type InstalmentQuery = { amount: string | number } | { cartId: string }

/** Asks the store for the plans (no PayLater call is made; the store computes and caches them). */
export function fetchInstalments(
  sdk: PayLaterSdk,
  query: InstalmentQuery,
  options: { providerId?: string; signal?: AbortSignal } = {}
): Promise<InstalmentOffer> {
  const params: Record<string, string> = "cartId" in query ? { cart_id: query.cartId } : { amount: String(query.amount) }
  if (options.providerId) params.provider_id = options.providerId
  return sdk.client.fetch<InstalmentOffer>("/store/paylater/instalments", { query: params, signal: options.signal })
}

/** "300.00" → "300", "1250.50" stays: whole riyals read better in a sentence. */
function riyals(amount: string): string {
  return amount.endsWith(".00") ? amount.slice(0, -3) : amount
}

/** The one-line message for an offer, in the shopper's language. */
export function describeInstalments(offer: InstalmentOffer, locale: Locale = "en"): string {
  const plan = offer.plans[0]
  if (offer.available && plan) {
    const uneven = plan.first_amount !== plan.instalment_amount
    if (locale === "ar") {
      return uneven
        ? `${plan.count} دفعات: الأولى ${plan.first_amount} ر.ق ثم ${plan.instalment_amount} ر.ق`
        : `${plan.count} دفعات بقيمة ${plan.instalment_amount} ر.ق`
    }
    return uneven
      ? `${plan.count} payments: ${plan.first_amount} QAR today, then ${plan.instalment_amount} QAR`
      : `${plan.count} payments of ${plan.instalment_amount} QAR`
  }
  switch (offer.reason) {
    case "below_minimum":
      return locale === "ar"
        ? `متاح للطلبات من ${riyals(offer.min_amount)} ر.ق`
        : `available for orders from ${riyals(offer.min_amount)} QAR`
    case "above_maximum":
      return locale === "ar"
        ? `متاح للطلبات حتى ${riyals(offer.max_amount)} ر.ق`
        : `available for orders up to ${riyals(offer.max_amount)} QAR`
    default:
      return locale === "ar" ? "متاح للدفع بالريال القطري فقط" : "available for payments in QAR only"
  }
}

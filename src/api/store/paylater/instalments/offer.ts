import { compareAmounts, instalmentPlans, type InstalmentPlanSettings } from "../../../../lib/paylater"
// The answer's shape is the storefront kit's, which reads it (docs/storefront-kit.md).
import type { InstalmentOffer } from "../../../../storefront/instalments"

export interface OfferSettings {
  minAmount: string
  maxAmount: string
  plans: InstalmentPlanSettings
}

// A product page shows a handful of prices and a cart one total: a small bound keeps memory flat
// when a crawler walks every price.
const MAX_CACHED = 2000
const cache = new Map<string, InstalmentOffer>()

function reasonFor(amount: string, currencyCode: string, settings: OfferSettings): InstalmentOffer["reason"] {
  if (currencyCode !== "qar") return "currency"
  if (compareAmounts(amount, settings.minAmount) < 0) return "below_minimum"
  if (compareAmounts(amount, settings.maxAmount) > 0) return "above_maximum"
  return null
}

/** The plans for a two-decimal amount, computed once per (provider, amount, currency) and kept. */
export function instalmentOffer(
  cacheKey: string,
  amount: string,
  currencyCode: string,
  settings: OfferSettings
): InstalmentOffer {
  const key = `${cacheKey}|${currencyCode}|${amount}`
  const cached = cache.get(key)
  if (cached) {
    return cached
  }
  const reason = reasonFor(amount, currencyCode, settings)
  const offer: InstalmentOffer = {
    amount,
    currency_code: currencyCode,
    min_amount: settings.minAmount,
    max_amount: settings.maxAmount,
    available: reason === null,
    reason,
    plans: reason === null ? instalmentPlans(amount, settings.plans) : [],
  }
  if (cache.size >= MAX_CACHED) {
    // Oldest first: Map keeps insertion order.
    cache.delete(cache.keys().next().value as string)
  }
  cache.set(key, offer)
  return offer
}

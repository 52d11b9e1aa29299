import { createHmac } from "node:crypto"
import type { Budget, LimitSettings } from "./budget"
import type { BudgetCounter } from "./counter"

/**
 * The budgets a PayLater payment started through the store API spends (docs/security.md):
 *
 * - every start, before anything else: one of its client address's, one of the store-wide ceiling's
 *   and one of its cart's (Requests to Pay and links have their own cart budgets). A start that the
 *   shopper look-up then refuses has spent these: probing numbers costs the prober;
 * - a Request to Pay, only once the look-up matched the number with the cart's email, right before
 *   the push: one of its mobile number's. So the number's budget counts pushes actually sent, and a
 *   stranger who does not know the shopper's email cannot spend it.
 *
 * A cart is its payment collection (Medusa gives a cart exactly one). Mobile numbers are kept only
 * as a keyed digest: the store's keys may be listed by anyone with access to Redis or the database.
 */

/** The `code` of the 429 answer; the storefront kit knows it as `too_many_requests`. */
export const TOO_MANY_REQUESTS_CODE = "paylater_too_many_requests"

/** The `code` of the 503 answer when the budgets' store fails and they cannot be checked. */
export const LIMITS_UNAVAILABLE_CODE = "paylater_limits_unavailable"

export type BudgetName = "client" | "store" | "cart" | "mobile"

export type LimitVerdict =
  | { allowed: true }
  | { allowed: false; spent: BudgetName; budget: Budget; retryAfterSeconds: number }

export interface StartRequest {
  requestToPay: boolean
  paymentCollectionId: string
  /** The client's address as counted (client-address.ts). */
  client: string
}

/** A stable, secret-keyed name for a number: the same on every instance, useless to a reader of the store. */
export function mobileBudgetName(mobile: string, secret: string): string {
  return `mobile:${createHmac("sha256", secret).update(`paylater-limit:${mobile}`).digest("hex").slice(0, 32)}`
}

/** Spends a start's client, store-wide and cart budgets, all or none. */
export async function spendStartBudgets(counter: BudgetCounter, limits: LimitSettings, request: StartRequest): Promise<LimitVerdict> {
  const wanted: Array<{ spent: BudgetName; key: string; budget: Budget }> = [
    { spent: "client", key: `client:${request.client}`, budget: limits.startsPerClient },
    { spent: "store", key: "store", budget: limits.startsPerStore },
    request.requestToPay
      ? { spent: "cart", key: `rtp-cart:${request.paymentCollectionId}`, budget: limits.requestToPayPerCart }
      : { spent: "cart", key: `link-cart:${request.paymentCollectionId}`, budget: limits.paymentLinkPerCart },
  ]
  const taken: typeof wanted = []
  const giveBackTaken = () => Promise.all(taken.map((t) => counter.giveBack(t.key, t.budget)))
  for (const use of wanted) {
    let result
    try {
      result = await counter.spend(use.key, use.budget)
    } catch (error) {
      await giveBackTaken()
      throw error
    }
    if (!result.ok) {
      // A start refused by one budget spends none of the others.
      await giveBackTaken()
      return { allowed: false, spent: use.spent, budget: use.budget, retryAfterSeconds: result.retryAfterSeconds }
    }
    taken.push(use)
  }
  return { allowed: true }
}

/** Spends one push to `mobile` (normalised), right before it is sent. */
export async function spendPushBudget(
  counter: BudgetCounter,
  limits: LimitSettings,
  mobile: string,
  secret: string
): Promise<LimitVerdict> {
  const budget = limits.requestToPayPerMobile
  const result = await counter.spend(mobileBudgetName(mobile, secret), budget)
  return result.ok ? { allowed: true } : { allowed: false, spent: "mobile", budget, retryAfterSeconds: result.retryAfterSeconds }
}

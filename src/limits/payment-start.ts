import { createHmac } from "node:crypto"
import { normalizeQatarMobile } from "../lib/paylater"
import { lookUpWanted } from "../providers/paylater/eligibility"
import type { Budget } from "../providers/paylater/limit-options"
import type { ResolvedProviderOptions } from "../providers/paylater/options"
import { PAYLATER_RTP_PROVIDER } from "../medusa-records/session"
import { giveBack, takeSlot, type SlotLocking } from "./slots"

/**
 * The budgets one "start a PayLater payment" request spends (a payment session created through the
 * store API): a Request to Pay spends one of its cart's and one of its mobile number's; a payment
 * link one of its cart's, and one of the number's when a shopper look-up will be made for it
 * (eligibilityCheck "all"). The look-up made before a push is part of that push's use: a look-up
 * that refuses still spent it, so the look-up cannot be used to probe numbers either.
 *
 * A cart is its payment collection (Medusa gives a cart exactly one). Mobile numbers are kept only
 * as a keyed digest: lock keys may be listed by anyone with access to Redis.
 */

/** The `code` of the 429 answer; the storefront kit knows it as `too_many_requests`. */
export const TOO_MANY_REQUESTS_CODE = "paylater_too_many_requests"

/** The `code` of the 503 answer when the locking module fails and the budgets cannot be checked. */
export const LIMITS_UNAVAILABLE_CODE = "paylater_limits_unavailable"

export interface PaymentStartRequest {
  providerId: string
  paymentCollectionId: string
  /** What the storefront sent as the session's data. */
  data: Record<string, unknown> | undefined
}

export type LimitVerdict =
  | { allowed: true }
  | { allowed: false; spent: "mobile" | "cart"; budget: Budget; mobile: string | null }

function mobileOf(data: Record<string, unknown> | undefined): string | null {
  try {
    return normalizeQatarMobile(data?.mobile_number)
  } catch {
    // The provider refuses a malformed number before any call; only the cart's budget applies.
    return null
  }
}

/** A stable, secret-keyed name for a number: the same on every instance, useless to a reader of Redis. */
export function mobileBudgetName(mobile: string, secret: string): string {
  return `mobile:${createHmac("sha256", secret).update(`paylater-limit:${mobile}`).digest("hex").slice(0, 32)}`
}

export async function spendPaymentStartBudget(
  locking: SlotLocking,
  options: ResolvedProviderOptions,
  request: PaymentStartRequest
): Promise<LimitVerdict> {
  const rtp = PAYLATER_RTP_PROVIDER.test(request.providerId)
  const { limits } = options
  const cartBudget = rtp ? limits.requestToPayPerCart : limits.paymentLinkPerCart
  const mobile = mobileOf(request.data)
  const countsForMobile = mobile !== null && (rtp || lookUpWanted(options.checkout.eligibility.mode, "link"))

  const cart = await takeSlot(locking, `${rtp ? "rtp" : "link"}-cart:${request.paymentCollectionId}`, cartBudget)
  if (!cart) {
    return { allowed: false, spent: "cart", budget: cartBudget, mobile }
  }
  if (countsForMobile) {
    const taken = await takeSlot(locking, mobileBudgetName(mobile, options.config.webhookSecret), limits.requestToPayPerMobile).catch(
      async (error) => {
        await giveBack(locking, cart)
        throw error
      }
    )
    if (!taken) {
      await giveBack(locking, cart)
      return { allowed: false, spent: "mobile", budget: limits.requestToPayPerMobile, mobile }
    }
  }
  return { allowed: true }
}

import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { maskMobile, normalizeQatarMobile } from "../../../lib/paylater"
import { clientAddressOf } from "../../../limits/client-address"
import { LIMITS_UNAVAILABLE_CODE, spendPushBudget, spendStartBudgets, TOO_MANY_REQUESTS_CODE, type LimitVerdict } from "../../../limits/payment-start"
import type { BudgetCounter } from "../../../limits/counter"
import { countersOf } from "../../../limits/store"
import { recordCeilingRefusal } from "../../../limits/ceiling-refusals"
import { clientForRegistration, registeredProviderOptions, registrationIdOf } from "../../../medusa-records/registrations"
import { PAYLATER_RTP_PROVIDER } from "../../../medusa-records/session"
import { ELIGIBILITY_ERROR_CODE, emailOf, lookUpShopper, lookUpWanted } from "../../../providers/paylater/eligibility"
import { toAmountText } from "../../../providers/paylater/money"
import { withPaymentCollection, withStoreStart } from "../../../providers/paylater/request-context"
import { SHOPPER_MESSAGES } from "../../../storefront/messages"
import { answerAlreadyPlaced } from "./already-placed"
import { tallyLookupRefusal } from "./lookup-tally"
import { settleOpenAttempts } from "./open-attempt"

/**
 * In front of Medusa's POST /store/payment-collections/:id/payment-sessions (api/middlewares.ts),
 * where anyone with the public publishable key can start a PayLater payment. For a PayLater provider:
 *
 * 1. the start's budgets: its client address's, the store-wide ceiling's and its cart's (429);
 *    then the attempt this start would replace, asked about once (open-attempt.ts): found paid, the
 *    order is placed and the answer is "already placed" (409), never a second payment;
 * 2. for a Request to Pay, the shopper look-up with the cart's own email, read here from the cart,
 *    never from what the storefront sends: no email on the cart → 400 `paylater_email_required`; no
 *    match → 400 `paylater_not_eligible`; look-up down or slow → 503 `paylater_lookup_unavailable`
 *    (use the link). With `eligibilityCheck: "all"` a link is looked up the same way, as advice;
 * 3. for a Request to Pay that matched, the number's budget, right before the push (429);
 * 4. the facts go to the provider (request-context.ts), which pushes only to the matched number.
 *
 * Nothing reaches PayLater for a refused start. Other providers pass with the collection id only.
 */

/** The `code` of the 400 answer when a Request to Pay is asked for a cart without an email. */
export const EMAIL_REQUIRED_CODE = "paylater_email_required"
/** The `code` of the 409 answer when the attempt this start would replace was paid but its cart could not become an order. */
export const PAID_NOT_PLACED_CODE = "paylater_paid_not_placed"
/** The `code` of the 503 answer when the look-up before a Request to Pay fails: nothing is pushed. */
export const LOOKUP_UNAVAILABLE_CODE = "paylater_lookup_unavailable"

type Row = Record<string, any>

interface Collection {
  id: string
  amount: unknown
  cart_email: string | null
}

async function collectionOf(req: MedusaRequest, id: string): Promise<Collection | null> {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: ["id", "amount", "cart.email"],
    filters: { id },
  })
  const row = (data as Row[])[0]
  return row ? { id: row.id, amount: row.amount, cart_email: emailOf(row.cart?.email) } : null
}

function mobileOf(data: unknown): string | null {
  try {
    return normalizeQatarMobile((data as Row | undefined)?.mobile_number)
  } catch {
    // The provider refuses a malformed number with its own message, before any call.
    return null
  }
}

function refuse(res: MedusaResponse, status: number, type: string, code: string, message: string): void {
  res.status(status).json({ type, code, message })
}

async function tooMany(
  req: MedusaRequest,
  res: MedusaResponse,
  counter: BudgetCounter,
  providerId: string,
  verdict: Extract<LimitVerdict, { allowed: false }>,
  who: { mobile: string | null; client: string }
): Promise<void> {
  const { max, windowSeconds } = verdict.budget
  // The client's address is named so a merchant can check trustedProxyHops (docs/security.md).
  const whose = {
    mobile: `mobile ${maskMobile(who.mobile)}`,
    store: "the store (all clients)",
    cart: "a cart",
    client: `client ${who.client}`,
  }[verdict.spent]
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  logger.info(`PayLater: ${providerId} refused for ${whose}: ${max} per ${windowSeconds / 60} minutes reached`)
  res.setHeader("Retry-After", String(verdict.retryAfterSeconds))
  if (verdict.spent === "store" && (await recordCeilingRefusal(counter))) {
    // Every shopper is refused with it: counted for Settings → PayLater, warned once a minute.
    logger.warn(
      `PayLater: the store-wide ceiling (startLimitPerMinute, ${max} a minute) is refusing PayLater payments for every shopper; see Settings → PayLater and docs/security.md`
    )
  }
  refuse(res, 429, "not_allowed", TOO_MANY_REQUESTS_CODE, SHOPPER_MESSAGES.too_many_requests.en)
}

export async function guardPayLaterStart(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const collectionId = typeof req.params?.id === "string" ? req.params.id : ""
  try {
    const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
    const providerId = typeof body.provider_id === "string" ? body.provider_id : ""
    const options = registeredProviderOptions(req.scope, providerId)
    const collection = options && collectionId ? await collectionOf(req, collectionId) : null
    if (!options || !collection) {
      // Not PayLater, or Medusa answers 404 itself: no budget is spent for it.
      return collectionId ? withPaymentCollection(collectionId, () => next()) : next()
    }
    const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
    const requestToPay = PAYLATER_RTP_PROVIDER.test(providerId)
    const mobile = mobileOf(body.data)
    const client = clientAddressOf(req, options.limits.trustedProxyHops)

    let counter: BudgetCounter
    let verdict: LimitVerdict
    try {
      counter = await countersOf(req.scope)
      verdict = await spendStartBudgets(counter, options.limits, { requestToPay, paymentCollectionId: collection.id, client })
    } catch (error) {
      return limitsUnavailable(req, res, providerId, error)
    }
    if (!verdict.allowed) {
      return tooMany(req, res, counter, providerId, verdict, { mobile, client })
    }

    // Bounded like the shopper look-up: how long a start waits for one PayLater question.
    const replaced = await settleOpenAttempts(req.scope, collection.id, options.checkout.eligibility.timeoutMs)
    if (replaced.kind === "placed") {
      return answerAlreadyPlaced(res, replaced.order_id)
    }
    if (replaced.kind === "paid_not_placed") {
      return refuse(res, 409, "not_allowed", PAID_NOT_PLACED_CODE, SHOPPER_MESSAGES.paid_not_placed.en)
    }

    const lookUp = mobile !== null && (requestToPay || lookUpWanted(options.checkout.eligibility.mode, "link"))
    if (requestToPay && mobile && !collection.cart_email) {
      return refuse(res, 400, "invalid_data", EMAIL_REQUIRED_CODE, SHOPPER_MESSAGES.email_required.en)
    }
    if (lookUp && collection.cart_email) {
      const api = clientForRegistration(req.scope, registrationIdOf(providerId))
      const outcome = api
        ? await lookUpShopper(
            api,
            { mobile, email: collection.cart_email, amount: toAmountText(collection.amount as never) },
            {
              timeoutMs: options.checkout.eligibility.timeoutMs,
              logger,
              consequence: requestToPay ? "no Request to Pay is sent (the shopper is offered the link)" : "going on with the link",
            }
          )
        : ({ kind: "unknown", why: "no client" } as const)
      if (outcome.kind === "no_account" || outcome.kind === "limit_too_low") {
        logger.info(
          `PayLater: ${providerId} not started for ${maskMobile(mobile)}: ${outcome.kind === "no_account" ? "no PayLater account for the number and the cart's email" : "the shopper's spending limit is below the total"}`
        )
        await tallyLookupRefusal(req.scope, requestToPay, ELIGIBILITY_ERROR_CODE)
        return refuse(res, 400, "not_allowed", ELIGIBILITY_ERROR_CODE, SHOPPER_MESSAGES.not_eligible.en)
      }
      if (outcome.kind === "unknown" && requestToPay) {
        // Fail closed: without PayLater's word that the number is the cart's shopper, nothing is pushed.
        await tallyLookupRefusal(req.scope, requestToPay, LOOKUP_UNAVAILABLE_CODE)
        res.setHeader("Retry-After", "60")
        return refuse(res, 503, "unexpected_state", LOOKUP_UNAVAILABLE_CODE, SHOPPER_MESSAGES.lookup_unavailable.en)
      }
    }

    if (requestToPay && mobile) {
      let pushed: LimitVerdict
      try {
        pushed = await spendPushBudget(counter, options.limits, mobile, options.config.webhookSecret)
      } catch (error) {
        return limitsUnavailable(req, res, providerId, error)
      }
      if (!pushed.allowed) {
        return tooMany(req, res, counter, providerId, pushed, { mobile, client })
      }
    }
    withStoreStart(collection.id, { matched_mobile: requestToPay ? mobile : null }, () => next())
  } catch (error) {
    next(error)
  }
}

/** The budgets' store failed (e.g. Redis down): nothing is sent to PayLater, and the shopper gets a message, not a 500. */
function limitsUnavailable(req: MedusaRequest, res: MedusaResponse, providerId: string, error: unknown): void {
  req.scope
    .resolve(ContainerRegistrationKeys.LOGGER)
    .error(`PayLater: ${providerId} start refused, the limits could not be checked: ${(error as Error)?.message}`)
  refuse(res, 503, "unexpected_state", LIMITS_UNAVAILABLE_CODE, SHOPPER_MESSAGES.unknown.en)
}

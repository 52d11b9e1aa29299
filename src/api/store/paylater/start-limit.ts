import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { maskMobile } from "../../../lib/paylater"
import { LIMITS_UNAVAILABLE_CODE, spendPaymentStartBudget, TOO_MANY_REQUESTS_CODE } from "../../../limits/payment-start"
import { registeredProviderOptions } from "../../../medusa-records/registrations"
import { SHOPPER_MESSAGES } from "../../../storefront/messages"

/**
 * In front of Medusa's POST /store/payment-collections/:id/payment-sessions (api/middlewares.ts):
 * a PayLater session is a push to a phone or a link at PayLater, so each one spends the budgets of
 * its cart and mobile number (src/limits). Over budget: 429 with the shopper's message and nothing
 * reaches the provider, so nothing reaches PayLater. Other providers pass untouched.
 */
async function collectionExists(req: MedusaRequest, id: string | undefined): Promise<boolean> {
  if (!id) return false
  const [found] = await req.scope.resolve(Modules.PAYMENT).listPaymentCollections({ id }, { select: ["id"], take: 1 })
  return !!found
}

export async function limitPayLaterStarts(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
    const providerId = typeof body.provider_id === "string" ? body.provider_id : ""
    const options = registeredProviderOptions(req.scope, providerId)
    if (!options || !(await collectionExists(req, req.params.id))) {
      // Not PayLater, or Medusa answers 404 itself: no budget is spent (and no lock key made) for it.
      return next()
    }
    let verdict
    try {
      verdict = await spendPaymentStartBudget(req.scope.resolve(Modules.LOCKING), options, {
        providerId,
        paymentCollectionId: req.params.id,
        data: body.data && typeof body.data === "object" ? (body.data as Record<string, unknown>) : undefined,
      })
    } catch (error) {
      // The locking store failed (e.g. Redis down): the budgets cannot be checked, so nothing is sent
      // to PayLater, and the shopper gets a message rather than an opaque 500. Keys hold no number.
      req.scope.resolve(ContainerRegistrationKeys.LOGGER).error(`PayLater: ${providerId} start refused, the limits could not be checked: ${(error as Error)?.message}`)
      res.status(503).json({ type: "unexpected_state", code: LIMITS_UNAVAILABLE_CODE, message: SHOPPER_MESSAGES.unknown.en })
      return
    }
    if (verdict.allowed) {
      return next()
    }
    const { max, windowSeconds } = verdict.budget
    req.scope
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(
        `PayLater: ${providerId} refused for ${verdict.spent === "mobile" ? `mobile ${maskMobile(verdict.mobile)}` : "a cart"}: ${max} per ${windowSeconds / 60} minutes reached`
      )
    // A use frees at the next window boundary at the latest (src/limits/slots.ts): the window is a safe bound.
    res.setHeader("Retry-After", String(windowSeconds))
    res.status(429).json({ type: "not_allowed", code: TOO_MANY_REQUESTS_CODE, message: SHOPPER_MESSAGES.too_many_requests.en })
  } catch (error) {
    next(error)
  }
}

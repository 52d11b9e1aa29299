import { MedusaError } from "@medusajs/framework/utils"
import { isPayLaterError } from "../../../lib/paylater"
import { SHOPPER_MESSAGES } from "../../../storefront/messages"

/**
 * Machine-readable `code`s on the Request to Pay errors a storefront can act on. Medusa's error
 * handler passes `code` through next to `type` and `message`, so a storefront branches on it instead
 * of parsing text.
 */
export const REQUEST_TO_PAY_ERROR_CODES = {
  /** PayLater answered 409: this reference already has a request. Start a new payment session. */
  duplicate: "paylater_rtp_duplicate_reference",
  /** PayLater answered 404 "try again later": nothing was pushed, the same number may be retried. */
  tryLater: "paylater_rtp_try_later",
  /** The answer was lost and the status could not be checked: a request may be on the phone. */
  unconfirmed: "paylater_rtp_unconfirmed",
} as const

/**
 * The two refusals PayLater documents for Request to Pay, in words for the shopper. Any other error
 * is returned unchanged so the base class can apply its shared mapping and retry rules.
 */
export function requestToPayError(error: unknown): unknown {
  if (isPayLaterError(error, "DUPLICATE_REFERENCE")) {
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      SHOPPER_MESSAGES.duplicate.en,
      REQUEST_TO_PAY_ERROR_CODES.duplicate
    )
  }
  if (isPayLaterError(error, "UPSTREAM_UNAVAILABLE")) {
    // 422 rather than 500: the request was understood, PayLater could not deliver it right now.
    return new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      SHOPPER_MESSAGES.try_later.en,
      REQUEST_TO_PAY_ERROR_CODES.tryLater
    )
  }
  return error
}

export function unconfirmedRequestError(): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    SHOPPER_MESSAGES.unconfirmed.en,
    REQUEST_TO_PAY_ERROR_CODES.unconfirmed
  )
}

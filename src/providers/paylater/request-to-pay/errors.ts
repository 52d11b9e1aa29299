import { MedusaError } from "@medusajs/framework/utils"
import { isPayLaterError } from "../../../lib/paylater"

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
      "A Request to Pay was already sent for this payment. Start a new payment to send another request.",
      REQUEST_TO_PAY_ERROR_CODES.duplicate
    )
  }
  if (isPayLaterError(error, "UPSTREAM_UNAVAILABLE")) {
    // 422 rather than 500: the request was understood, PayLater could not deliver it right now.
    return new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      "PayLater could not send the request to this mobile number right now. Check that it is the number of your PayLater account, or try again in a few minutes.",
      REQUEST_TO_PAY_ERROR_CODES.tryLater
    )
  }
  return error
}

export function unconfirmedRequestError(): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    "PayLater did not confirm the request. A request may already be waiting in the PayLater app: please check the app, or wait for it to expire before sending a new one.",
    REQUEST_TO_PAY_ERROR_CODES.unconfirmed
  )
}

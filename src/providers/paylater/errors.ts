import { MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../lib/paylater"

/**
 * PayLater errors → MedusaError. The type decides the HTTP status the storefront or admin sees
 * (INVALID_DATA / NOT_ALLOWED 400, PAYMENT_AUTHORIZATION_ERROR 422, UNEXPECTED_STATE 500), and the
 * message is written for the person who will read it. Remote texts are kept only where they are
 * PayLater's own business messages; nothing here can carry a token or secret because the client's
 * messages never contain them.
 */

export type PayLaterOperation = "create" | "status" | "refund"

const UNAVAILABLE = {
  create: "PayLater could not be reached to start the payment. Please try again in a moment.",
  status: "PayLater could not be reached to confirm the payment. Please try again in a moment.",
  // A refund may have reached PayLater even though no answer came back: repeating it blindly could refund twice.
  refund:
    "PayLater did not confirm the refund. Check the order in the PayLater merchant portal before trying again: a repeated refund may be paid out twice.",
} as const

function bounds(error: PayLaterError): { min?: string; max?: string } {
  const min = typeof error.details.min === "string" ? error.details.min : undefined
  const max = typeof error.details.max === "string" ? error.details.max : undefined
  return { min, max }
}

export function toMedusaError(error: unknown, operation: PayLaterOperation): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  if (!(error instanceof PayLaterError)) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, UNAVAILABLE[operation])
  }
  const T = MedusaError.Types
  switch (error.code) {
    case "AMOUNT_OUT_OF_RANGE": {
      const { min, max } = bounds(error)
      return new MedusaError(
        T.INVALID_DATA,
        min && max
          ? `PayLater can pay for orders between ${min} and ${max} QAR. Please choose another payment method for this order.`
          : "The order amount is outside the range PayLater accepts. Please choose another payment method."
      )
    }
    case "VALIDATION":
    case "ORDER_ID_REQUIRED":
      return new MedusaError(T.INVALID_DATA, `PayLater refused the request: ${error.message}`)
    case "REFUND_TOO_EARLY":
      return new MedusaError(
        T.NOT_ALLOWED,
        "PayLater accepts a refund only 10 minutes after the payment. Please try again in a few minutes."
      )
    case "REFUND_WINDOW_CLOSED":
      return new MedusaError(
        T.NOT_ALLOWED,
        "PayLater no longer accepts a refund for this payment: refunds are possible up to 29 days after the payment. Settle it with the shopper directly."
      )
    case "REFUND_REJECTED":
      return new MedusaError(T.NOT_ALLOWED, `PayLater rejected the refund: ${error.message}`)
    case "ORDER_ID_NOT_UNIQUE":
    case "DUPLICATE_REFERENCE":
      return new MedusaError(
        T.NOT_ALLOWED,
        "PayLater already has a payment for this checkout. Please start the payment again."
      )
    case "INVALID_CREDENTIALS":
    case "INVALID_API_KEY":
    case "MERCHANT_MISSING":
    case "CONFIGURATION":
      // The merchant's setup is wrong; the shopper can only pick another method, the logs say why.
      return new MedusaError(
        T.PAYMENT_AUTHORIZATION_ERROR,
        "PayLater is not available for this store at the moment. Please choose another payment method."
      )
    case "TIMEOUT":
    case "NETWORK":
    case "SERVER_ERROR":
    case "UPSTREAM_UNAVAILABLE":
    case "UNEXPECTED_RESPONSE":
      return new MedusaError(T.UNEXPECTED_STATE, UNAVAILABLE[operation])
    default: {
      const unhandled: never = error.code
      return new MedusaError(T.UNEXPECTED_STATE, `${UNAVAILABLE[operation]} (${String(unhandled)})`)
    }
  }
}

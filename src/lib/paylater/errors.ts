/**
 * Typed errors of the PayLater client. `code` is stable and is what callers branch on; `message`
 * keeps PayLater's own text where there is one. `retryable` says whether the same call may be
 * repeated later by the caller (never true for an operation that may already have taken effect).
 */
export type PayLaterErrorCode =
  /** Options refused at boot. */
  | "CONFIGURATION"
  /** Token endpoint refused the client id / secret (invalid_client, unauthorized_client...). */
  | "INVALID_CREDENTIALS"
  /** Input refused before any call (currency, amount format, range, expiry, mobile number...). */
  | "VALIDATION"
  /** Amount outside the outlet's range; `details.min` / `details.max` hold the bounds as decimal text. */
  | "AMOUNT_OUT_OF_RANGE"
  /** Request to Pay 409 RTP-409-DUPLICATE-REFERENCE. */
  | "DUPLICATE_REFERENCE"
  /** Payment link "Order ID must be unique". */
  | "ORDER_ID_NOT_UNIQUE"
  /** "Order ID is required" / "Transaction Reference is required". */
  | "ORDER_ID_REQUIRED"
  /** "Merchant ID cannot be null": outlet id missing or unknown. */
  | "MERCHANT_MISSING"
  /** "Invalid API Key", or 401 twice in a row. */
  | "INVALID_API_KEY"
  /** Request to Pay 404 RTP-UPSTREAM-ERROR: try again later. */
  | "UPSTREAM_UNAVAILABLE"
  /** Refund asked for less than 10 minutes after the payment. */
  | "REFUND_TOO_EARLY"
  /** Refund asked for more than 29 days after the payment. */
  | "REFUND_WINDOW_CLOSED"
  /** Any other "Refund Error" (invalid reference, invalid type, non down-payment transactions...). */
  | "REFUND_REJECTED"
  /** No answer within the configured timeout. */
  | "TIMEOUT"
  /** Connection refused / reset / DNS: no HTTP answer at all. */
  | "NETWORK"
  /** 5xx from PayLater. */
  | "SERVER_ERROR"
  /** Anything PayLater answered that matches no known shape (unknown body, non-JSON, bad schema). */
  | "UNEXPECTED_RESPONSE"

export interface PayLaterErrorInit {
  httpStatus?: number
  retryable?: boolean
  /** PayLater's own machine code (`error_reference`) or error string, when there is one. */
  remoteCode?: string
  details?: Record<string, unknown>
  cause?: unknown
}

export class PayLaterError extends Error {
  readonly code: PayLaterErrorCode
  readonly httpStatus?: number
  readonly retryable: boolean
  readonly remoteCode?: string
  readonly details: Record<string, unknown>

  constructor(code: PayLaterErrorCode, message: string, init: PayLaterErrorInit = {}) {
    super(message)
    this.name = "PayLaterError"
    this.code = code
    this.httpStatus = init.httpStatus
    this.retryable = init.retryable ?? false
    this.remoteCode = init.remoteCode
    this.details = init.details ?? {}
    if (init.cause !== undefined) {
      ;(this as { cause?: unknown }).cause = init.cause
    }
  }
}

export function isPayLaterError(value: unknown, code?: PayLaterErrorCode): value is PayLaterError {
  return value instanceof PayLaterError && (code === undefined || value.code === code)
}

import { PayLaterError } from "./errors"
import type { HttpAnswer, PayLaterOperation } from "./http"
import { STATE_CHANGING } from "./http"
import { toTwoDecimals } from "./money"

/**
 * Reads PayLater's answers into typed errors. HTTP codes of most errors are not published, so the
 * body's text decides and the status only breaks ties (5xx → SERVER_ERROR when the text is unknown).
 */

export const NOT_JSON: unique symbol = Symbol("not JSON")

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return NOT_JSON
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined
}

// Remote text quoted inside our own messages is bounded so that a runaway body cannot flood logs.
function clip(value: string | undefined): string | undefined {
  return value !== undefined && value.length > 300 ? `${value.slice(0, 300)}…` : value
}

const INVALID_API_KEY = /invalid api key/i
const AMOUNT_RANGE = /amount must be between\s+(\d+(?:\.\d+)?)\s+and\s+(\d+(?:\.\d+)?)/i

/** The call was refused for its bearer token: worth one retry with a fresh token. */
export function isAuthFailure(answer: HttpAnswer, body: unknown): boolean {
  return answer.status === 401 || (isObject(body) && INVALID_API_KEY.test(text(body.error) ?? ""))
}

export function invalidApiKeyError(answer: HttpAnswer, body: unknown, operation: PayLaterOperation) {
  const remote = isObject(body) ? clip(text(body.error) ?? text(body.message)) : undefined
  return new PayLaterError(
    "INVALID_API_KEY",
    `PayLater refused the access token${remote ? ` (${remote})` : ""} even with a freshly issued one: check that clientId/clientSecret belong to this environment and are enabled for the merchant API`,
    { httpStatus: answer.status, remoteCode: remote, details: { operation } }
  )
}

function rtpError(answer: HttpAnswer, body: Record<string, unknown>, operation: PayLaterOperation) {
  const reference = text(body.error_reference)
  const message = text(body.message) ?? "Request to Pay failed"
  const init = { httpStatus: answer.status, remoteCode: reference, details: { operation } }
  if (reference === "RTP-409-DUPLICATE-REFERENCE") {
    return new PayLaterError("DUPLICATE_REFERENCE", message, init)
  }
  if (reference === "RTP-UPSTREAM-ERROR") {
    const hint = /try again later/i.test(message) ? "" : " Try again later."
    return new PayLaterError("UPSTREAM_UNAVAILABLE", `${message}${hint}`, { ...init, retryable: true })
  }
  return null
}

function refundError(answer: HttpAnswer, message: string, operation: PayLaterOperation) {
  const init = { httpStatus: answer.status, remoteCode: "Refund Error", details: { operation } }
  if (/less than 10 minutes|try (again )?later/i.test(message)) {
    return new PayLaterError("REFUND_TOO_EARLY", message, { ...init, retryable: true })
  }
  if (/more than 29 days/i.test(message)) {
    return new PayLaterError("REFUND_WINDOW_CLOSED", message, init)
  }
  return new PayLaterError("REFUND_REJECTED", message, init)
}

function errorStringError(answer: HttpAnswer, error: string, operation: PayLaterOperation) {
  const init = { httpStatus: answer.status, remoteCode: error, details: { operation } }
  if (/merchant id cannot be null/i.test(error)) {
    return new PayLaterError("MERCHANT_MISSING", error, init)
  }
  if (/order id must be unique/i.test(error)) {
    return new PayLaterError("ORDER_ID_NOT_UNIQUE", error, init)
  }
  if (/(order id|transaction reference) is required/i.test(error)) {
    return new PayLaterError("ORDER_ID_REQUIRED", error, init)
  }
  const range = AMOUNT_RANGE.exec(error)
  if (range) {
    return new PayLaterError("AMOUNT_OUT_OF_RANGE", error, {
      ...init,
      details: { operation, min: toTwoDecimals(range[1]), max: toTwoDecimals(range[2]) },
    })
  }
  if (INVALID_API_KEY.test(error)) {
    return new PayLaterError("INVALID_API_KEY", error, init)
  }
  return null
}

/** A typed error for every error body PayLater is known to send, else null. */
export function knownRemoteError(
  answer: HttpAnswer,
  body: unknown,
  operation: PayLaterOperation
): PayLaterError | null {
  if (!isObject(body)) {
    return null
  }
  if (body.status === "FAILED" && typeof body.error_reference === "string") {
    return rtpError(answer, body, operation)
  }
  const error = text(body.error)
  if (error === undefined) {
    return null
  }
  const message = text(body.message)
  if (/^refund error$/i.test(error.trim()) && message !== undefined) {
    return refundError(answer, message, operation)
  }
  return errorStringError(answer, error, operation)
}

function describeBody(body: unknown): Record<string, unknown> {
  if (body === NOT_JSON) {
    return { body: "not JSON" }
  }
  // Keys only: bodies may hold a shopper's mobile number or email.
  return isObject(body) ? { bodyKeys: Object.keys(body).slice(0, 20) } : { body: typeof body }
}

/** For answers no rule recognised: SERVER_ERROR on 5xx, otherwise UNEXPECTED_RESPONSE. */
export function unrecognisedAnswer(
  answer: HttpAnswer,
  body: unknown,
  operation: PayLaterOperation,
  why = "an answer this client does not recognise"
): PayLaterError {
  const remote = isObject(body) ? clip(text(body.message) ?? text(body.error)) : undefined
  const remoteCode = isObject(body) ? clip(text(body.error_reference) ?? text(body.error)) : undefined
  const details = { operation, ...describeBody(body) }
  if (answer.status >= 500) {
    const outcomeUnknown = STATE_CHANGING.has(operation)
    return new PayLaterError(
      "SERVER_ERROR",
      `PayLater failed with HTTP ${answer.status}${remote ? ` (${remote})` : ""}; try again later`,
      {
        httpStatus: answer.status,
        remoteCode,
        // A refund has no idempotency key: repeating one after a server error may refund twice.
        retryable: operation !== "refund",
        details: { ...details, outcomeUnknown },
      }
    )
  }
  const shown = remote ? `: ${remote}` : ""
  return new PayLaterError(
    "UNEXPECTED_RESPONSE",
    `PayLater sent ${why} (HTTP ${answer.status}${answer.text === "" ? ", empty body" : ""})${shown}`,
    { httpStatus: answer.status, remoteCode, details }
  )
}

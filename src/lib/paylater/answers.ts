import { z } from "zod"
import { parsePayLaterDateTime } from "./datetime"
import type { HttpAnswer, PayLaterOperation } from "./http"
import { normalizeAmount } from "./money"
import { isObject, knownRemoteError, unrecognisedAnswer } from "./remote-errors"
import type {
  PaymentLink,
  PaymentState,
  PaymentStatus,
  RefundResult,
  RequestToPayResult,
  Shopper,
} from "./types"

/**
 * Success bodies of each operation, checked with zod. Known error bodies are recognised first,
 * whatever the HTTP status; a body that is neither becomes SERVER_ERROR (5xx) or UNEXPECTED_RESPONSE.
 */

const isSuccess = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300

function throwIfKnownError(answer: HttpAnswer, body: unknown, operation: PayLaterOperation): void {
  const error = knownRemoteError(answer, body, operation)
  if (error) {
    throw error
  }
}

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
})

const idText = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String)

/** Limits may arrive as numbers or strings; kept as decimal text, canonical when it has ≤ 2 decimals. */
const decimalText = z
  .union([z.string(), z.number()])
  .transform((value) => (typeof value === "number" ? String(value) : value.trim()))
  .refine((value) => /^-?\d+(\.\d+)?$/.test(value))
  .transform((value) => (/\.\d{3,}$/.test(value) ? value : normalizeAmount(value)))

const statusCode = z
  .union([z.number(), z.string().regex(/^\d$/)])
  .transform(Number)
  .pipe(z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]))

const STATES: Record<0 | 1 | 2 | 3, PaymentState> = {
  0: "not_initiated",
  1: "pending",
  2: "success",
  3: "failed",
}

/** PayLater's status code in words (the one mapping; the ledger stores only the code). */
export function paymentStateOf(code: 0 | 1 | 2 | 3): PaymentState {
  return STATES[code]
}

const paymentLinkBody = z.object({ paymentLinkUrl: httpUrl })

export function readPaymentLink(answer: HttpAnswer, body: unknown): PaymentLink {
  throwIfKnownError(answer, body, "createPaymentLink")
  const parsed = isSuccess(answer) ? paymentLinkBody.safeParse(body) : null
  if (!parsed?.success) {
    throw unrecognisedAnswer(answer, body, "createPaymentLink")
  }
  // The link's own query string (token, channel) must reach the shopper untouched.
  return { paymentLinkUrl: parsed.data.paymentLinkUrl }
}

const requestToPayBody = z.object({
  merchant_order_reference: z.string(),
  status: z.string().refine((value) => value.toUpperCase() === "SUCCESS"),
  expiry_date: z.string(),
})

export function readRequestToPay(answer: HttpAnswer, body: unknown, reference: string): RequestToPayResult {
  throwIfKnownError(answer, body, "requestToPay")
  const parsed = isSuccess(answer) ? requestToPayBody.safeParse(body) : null
  if (!parsed?.success) {
    throw unrecognisedAnswer(answer, body, "requestToPay")
  }
  if (parsed.data.merchant_order_reference !== reference) {
    throw unrecognisedAnswer(answer, body, "requestToPay", "a confirmation for another merchant_order_reference")
  }
  const expiresAt = parsePayLaterDateTime(parsed.data.expiry_date)
  if (expiresAt === null) {
    throw unrecognisedAnswer(answer, body, "requestToPay", "an expiry_date that is not a date-time")
  }
  return {
    merchantOrderReference: parsed.data.merchant_order_reference,
    status: "SUCCESS",
    expiresAt,
    expiryDateRaw: parsed.data.expiry_date,
  }
}

const statusBody = z.object({
  status: statusCode,
  message: z.string(),
  payLaterOrderId: idText.nullish(),
  merchantReference: z.string().nullish(),
})

export function readPaymentStatus(answer: HttpAnswer, body: unknown, orderId: string): PaymentStatus {
  throwIfKnownError(answer, body, "getPaymentStatus")
  // "Order not initiated" is an answer, not a failure, whatever status code carries it.
  const parsed = answer.status < 500 ? statusBody.safeParse(body) : null
  if (!parsed?.success || (parsed.data.status !== 0 && !isSuccess(answer))) {
    throw unrecognisedAnswer(answer, body, "getPaymentStatus")
  }
  const { status, message, payLaterOrderId, merchantReference } = parsed.data
  if (merchantReference != null && merchantReference !== orderId) {
    throw unrecognisedAnswer(answer, body, "getPaymentStatus", "a status for another order")
  }
  return {
    code: status,
    state: STATES[status],
    message,
    payLaterOrderId: payLaterOrderId ?? null,
    merchantReference: merchantReference ?? null,
  }
}

const refundBody = z.object({ message: z.string().min(1) })

export function readRefund(answer: HttpAnswer, body: unknown): RefundResult {
  throwIfKnownError(answer, body, "refund")
  const parsed = isSuccess(answer) && isObject(body) && body.error === undefined ? refundBody.safeParse(body) : null
  if (!parsed?.success) {
    throw unrecognisedAnswer(answer, body, "refund")
  }
  return { message: parsed.data.message }
}

const shopperBody = z.object({
  shopperId: idText,
  email: z.string(),
  mobileNumber: idText,
  currentSpendingLimit: decimalText,
  allowedSpendingLimit: decimalText,
})

export function readShopper(answer: HttpAnswer, body: unknown): Shopper | null {
  if (
    answer.status < 500 &&
    isObject(body) &&
    typeof body.message === "string" &&
    /shopper not found/i.test(body.message) &&
    body.shopperId === undefined
  ) {
    return null
  }
  throwIfKnownError(answer, body, "lookupShopper")
  const parsed = isSuccess(answer) ? shopperBody.safeParse(body) : null
  if (!parsed?.success) {
    throw unrecognisedAnswer(answer, body, "lookupShopper")
  }
  return { ...parsed.data }
}

import type { AxiosInstance } from "axios"
import { PayLaterError } from "./errors"

/**
 * One HTTP exchange with PayLater. Every answer, whatever its status, comes back as raw text for the
 * caller to classify; only the absence of an answer becomes an error here. Errors never carry the
 * axios error itself, whose config holds the Authorization header and the token request's secret.
 */

export type PayLaterOperation =
  | "token"
  | "createPaymentLink"
  | "requestToPay"
  | "getPaymentStatus"
  | "refund"
  | "lookupShopper"

/** Operations whose effect a lost answer leaves unknown (a blind repeat may act twice). */
export const STATE_CHANGING: ReadonlySet<PayLaterOperation> = new Set([
  "createPaymentLink",
  "requestToPay",
  "refund",
])

export interface HttpRequest {
  operation: PayLaterOperation
  method: "GET" | "POST"
  url: string
  headers: Record<string, string>
  body?: string
  timeoutMs: number
}

export interface HttpAnswer {
  status: number
  text: string
  durationMs: number
}

// The request never left: nothing can have happened at PayLater.
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"])
const TIMED_OUT = new Set(["ECONNABORTED", "ETIMEDOUT"])
// Guards memory against a runaway answer; real bodies are a few hundred bytes.
const MAX_ANSWER_BYTES = 1_000_000

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === "string" ? code : ""
}

function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === "string" ? message : String(error)
}

function transportError(request: HttpRequest, error: unknown, timedOut: boolean, durationMs: number) {
  const code = errorCode(error)
  const unknownOutcome = STATE_CHANGING.has(request.operation)
  const details = { operation: request.operation, durationMs, transportCode: code || undefined }
  if (timedOut || TIMED_OUT.has(code)) {
    return new PayLaterError(
      "TIMEOUT",
      `PayLater did not answer within ${request.timeoutMs} ms` +
        (unknownOutcome ? "; the request may or may not have taken effect" : ""),
      { retryable: !unknownOutcome, details: { ...details, outcomeUnknown: unknownOutcome } }
    )
  }
  if (code === "ERR_BAD_RESPONSE") {
    return new PayLaterError("UNEXPECTED_RESPONSE", `PayLater sent an unreadable answer: ${errorMessage(error)}`, {
      details: { ...details, outcomeUnknown: unknownOutcome },
    })
  }
  const sent = !NOT_SENT.has(code)
  const outcomeUnknown = sent && unknownOutcome
  return new PayLaterError(
    "NETWORK",
    `Could not reach PayLater (${code || errorMessage(error)})` +
      (outcomeUnknown ? "; the request may or may not have taken effect" : ""),
    { retryable: !outcomeUnknown, details: { ...details, outcomeUnknown } }
  )
}

export async function sendRequest(
  http: AxiosInstance,
  request: HttpRequest,
  now: () => number
): Promise<HttpAnswer> {
  const started = now()
  // axios' own timeout watches socket inactivity; this deadline bounds the whole exchange.
  const deadline = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    deadline.abort()
  }, request.timeoutMs)
  try {
    const response = await http.request<string>({
      method: request.method,
      url: request.url,
      headers: request.headers,
      data: request.body,
      timeout: request.timeoutMs,
      signal: deadline.signal,
      validateStatus: () => true,
      responseType: "text",
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
      maxRedirects: 0,
      maxContentLength: MAX_ANSWER_BYTES,
    })
    const data: unknown = response.data
    const text = typeof data === "string" ? data : data == null ? "" : String(data)
    return { status: response.status, text, durationMs: now() - started }
  } catch (error) {
    throw transportError(request, error, timedOut, now() - started)
  } finally {
    clearTimeout(timer)
  }
}

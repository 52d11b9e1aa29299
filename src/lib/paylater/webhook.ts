import { createHash, createHmac, timingSafeEqual } from "node:crypto"

/**
 * PayLater webhook signing and verification (service description, section 6).
 *
 *   txHash    = hex(MD5(UPPER(merchantId + orderId + status + timestamp + comments)))
 *   signature = hex(HMAC-SHA256(key = webhook secret, message = received txHash))
 *
 * Absent or null `comments` count as "" and `timestamp` enters as its decimal text whether it came
 * as a JSON number or a numeric string (paylater-facts.md); so do the identifiers (`merchantId`,
 * `orderId`, `paylaterRef`), which some senders write as JSON numbers. "UPPER" is not specified for
 * non-ASCII text: a sender may upper-case the full Unicode way (JavaScript, Java) or ASCII letters
 * only (PHP's strtoupper), so a txHash matching either reading is accepted. The HMAC of the received
 * txHash is checked exactly as before. Verification never throws: hostile bodies are answered with a
 * reason so the route can log it and answer 403.
 */

export type WebhookStatus = "success" | "failed" | "pending"

export interface WebhookPayload {
  merchantId: string | number
  orderId: string | number
  paylaterRef?: string | number
  status: string
  timestamp: number | string
  txHash: string
  signature: string
  comments?: string | null
}

export interface VerifiedWebhook {
  merchantId: string
  orderId: string
  paylaterRef: string | null
  status: WebhookStatus
  /** The timestamp exactly as its decimal text was signed. */
  timestamp: string
  comments: string | null
}

export type WebhookFailureReason =
  | "malformed"
  | "hash_mismatch"
  | "signature_mismatch"
  | "merchant_mismatch"
  | "stale"

export type WebhookVerification =
  | { ok: true; webhook: VerifiedWebhook }
  | { ok: false; reason: WebhookFailureReason; message: string }

export interface VerifyWebhookOptions {
  /** When set, a notification for another merchant is refused even if correctly signed. */
  expectedMerchantId?: string
  /**
   * Optional freshness window. The timestamp's unit is not published, so values above 1e11 are read
   * as milliseconds and others as seconds. Off by default (PayLater retries late notifications).
   */
  toleranceSeconds?: number
  now?: () => number
}

// Bounds keep hashing cheap on hostile bodies; real values are far shorter.
const MAX_FIELD_LENGTH = 1024
const MAX_COMMENTS_LENGTH = 8192
const HEX_MD5 = /^[0-9a-fA-F]{32}$/
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/
const DECIMAL_INTEGER = /^\d{1,20}$/
const FIELDS = ["merchantId", "orderId", "paylaterRef", "status", "timestamp", "txHash", "signature", "comments"] as const
const STATUSES: ReadonlySet<string> = new Set(["success", "failed", "pending"])

function fail(reason: WebhookFailureReason, message: string): WebhookVerification {
  return { ok: false, reason, message }
}

/** The timestamp's decimal text, or null when it is neither a non-negative integer nor its text. */
export function timestampText(value: unknown): string | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : null
  }
  if (typeof value === "string" && DECIMAL_INTEGER.test(value)) {
    return value
  }
  return null
}

/**
 * An identifier as it was signed: a non-empty string, or a non-negative whole JSON number's decimal
 * text. Null otherwise.
 */
export function identifierText(value: unknown, max = MAX_FIELD_LENGTH): string | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : null
  }
  return typeof value === "string" && value.length > 0 && value.length <= max ? value : null
}

/** How the sender upper-cased the concatenation: full Unicode, or ASCII letters only (PHP). */
export type UpperCasing = "unicode" | "ascii"

function upperCase(text: string, casing: UpperCasing): string {
  return casing === "unicode" ? text.toUpperCase() : text.replace(/[a-z]+/g, (letters) => letters.toUpperCase())
}

export function computeTxHash(
  fields: {
    merchantId: string | number
    orderId: string | number
    status: string
    timestamp: number | string
    comments?: string | null
  },
  casing: UpperCasing = "unicode"
): string {
  const text =
    String(fields.merchantId) +
    String(fields.orderId) +
    fields.status +
    String(fields.timestamp) +
    (fields.comments ?? "")
  return createHash("md5").update(upperCase(text, casing), "utf8").digest("hex")
}

export function computeSignature(txHash: string, secret: string): string {
  return createHmac("sha256", secret).update(txHash, "utf8").digest("hex")
}

/** Builds a signed notification as PayLater sends it (used by the sandbox and by tests). */
export function signWebhook(
  fields: {
    merchantId: string | number
    orderId: string | number
    paylaterRef?: string | number
    status: WebhookStatus
    timestamp: number
    comments?: string | null
  },
  secret: string,
  casing: UpperCasing = "unicode"
): WebhookPayload {
  const txHash = computeTxHash(fields, casing)
  const payload: WebhookPayload = {
    merchantId: fields.merchantId,
    orderId: fields.orderId,
    paylaterRef: fields.paylaterRef,
    status: fields.status,
    timestamp: fields.timestamp,
    txHash,
    signature: computeSignature(txHash, secret),
  }
  if (fields.comments !== undefined && fields.comments !== null) {
    payload.comments = fields.comments
  }
  return payload
}

/** Constant-time, case-insensitive equality of two hex digests of the same expected length. */
function hexEqual(received: string, expected: string): boolean {
  const a = Buffer.from(received.toLowerCase(), "utf8")
  const b = Buffer.from(expected.toLowerCase(), "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

export function verifyWebhook(
  body: unknown,
  secret: string,
  options: VerifyWebhookOptions = {}
): WebhookVerification {
  if (typeof secret !== "string" || secret.length === 0) {
    return fail("malformed", "Webhook secret is not configured")
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail("malformed", "Webhook body must be a JSON object")
  }
  // Own members only: an object that reached us through copies may carry fields on its prototype
  // (e.g. a JSON member named "__proto__"), and those were never signed by PayLater.
  const b: Record<string, unknown> = {}
  for (const key of FIELDS) {
    if (Object.prototype.hasOwnProperty.call(body, key)) {
      b[key] = (body as Record<string, unknown>)[key]
    }
  }

  const merchantId = identifierText(b.merchantId)
  if (merchantId === null) {
    return fail("malformed", "merchantId must be a non-empty string or a whole number")
  }
  const orderId = identifierText(b.orderId)
  if (orderId === null) {
    return fail("malformed", "orderId must be a non-empty string or a whole number")
  }
  if (typeof b.status !== "string" || !STATUSES.has(b.status)) {
    return fail("malformed", "status must be one of success, failed, pending")
  }
  const timestamp = timestampText(b.timestamp)
  if (timestamp === null) {
    return fail("malformed", "timestamp must be a non-negative integer")
  }
  const comments = b.comments
  if (
    comments !== undefined &&
    comments !== null &&
    !(typeof comments === "string" && comments.length <= MAX_COMMENTS_LENGTH)
  ) {
    return fail("malformed", "comments must be a string when present")
  }
  const paylaterRef = b.paylaterRef === undefined || b.paylaterRef === null ? null : identifierText(b.paylaterRef)
  if (paylaterRef === null && b.paylaterRef !== undefined && b.paylaterRef !== null) {
    return fail("malformed", "paylaterRef must be a string or a whole number when present")
  }
  if (typeof b.txHash !== "string" || !HEX_MD5.test(b.txHash)) {
    return fail("malformed", "txHash must be a 32-character hex string")
  }
  if (typeof b.signature !== "string" || !HEX_SHA256.test(b.signature)) {
    return fail("malformed", "signature must be a 64-character hex string")
  }

  const signed = { merchantId, orderId, status: b.status, timestamp, comments: comments as string | null | undefined }
  // Every compare always runs (no short-circuit) so that timing does not tell which one failed.
  const unicodeOk = hexEqual(b.txHash, computeTxHash(signed, "unicode"))
  const asciiOk = hexEqual(b.txHash, computeTxHash(signed, "ascii"))
  const hashOk = unicodeOk || asciiOk
  const signatureOk = hexEqual(b.signature, computeSignature(b.txHash, secret))
  if (!hashOk) {
    return fail("hash_mismatch", "txHash does not match the notification's fields")
  }
  if (!signatureOk) {
    return fail("signature_mismatch", "Invalid signature")
  }

  if (options.expectedMerchantId !== undefined && merchantId !== options.expectedMerchantId) {
    return fail("merchant_mismatch", "Notification is for another merchant")
  }

  if (options.toleranceSeconds !== undefined) {
    const raw = Number(timestamp)
    const seconds = raw > 1e11 ? raw / 1000 : raw
    const now = (options.now ?? Date.now)() / 1000
    if (Math.abs(now - seconds) > options.toleranceSeconds) {
      return fail("stale", "Notification timestamp is outside the accepted window")
    }
  }

  return {
    ok: true,
    webhook: {
      merchantId,
      orderId,
      paylaterRef,
      status: b.status as WebhookStatus,
      timestamp,
      comments: typeof comments === "string" ? comments : null,
    },
  }
}

import { randomBytes, randomUUID } from "node:crypto"

let plSequence = 0

/**
 * "PL" + 16 digits, shaped like PayLater's own ids (e.g. PL1744792493935483: epoch ms + 3 digits).
 * The sequence keeps ids distinct within one millisecond.
 */
export function newPayLaterOrderId(nowMs: number): string {
  plSequence = (plSequence + 1) % 1000
  const ms = String(Math.max(0, Math.floor(nowMs))).padStart(13, "0").slice(-13)
  return `PL${ms}${String(plSequence).padStart(3, "0")}`
}

/** Opaque, URL-safe random text (tokens are not JWTs here: nothing should parse them). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url")
}

export const newUuid = (): string => randomUUID()

/**
 * "2026-04-28T10:15:41.477013291": UTC wall time, no zone, nine fractional digits, as PayLater's
 * Request-to-Pay answer. The digits below the millisecond come from the high-resolution clock so
 * the value looks like a real nanosecond timestamp.
 */
export function nanoLocalDateTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString() // 2026-04-28T10:15:41.477Z
  const subMs = String(process.hrtime.bigint() % 1000000n).padStart(6, "0")
  return `${iso.slice(0, 23)}${subMs}`
}

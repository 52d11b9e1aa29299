import type { ProviderWebhookPayload } from "@medusajs/framework/types"

/** PayLater notifications are a few hundred bytes; anything far larger is not one of them. */
export const MAX_WEBHOOK_BYTES = 64 * 1024

/**
 * The exact raw text of a body in any form it reaches a provider in: a string, a Buffer or any
 * Uint8Array (in-process event buses), or the `{ type: "Buffer", data: [bytes] }` JSON form a
 * Buffer takes through Redis. Null for anything else, or when it is larger than any notification.
 */
export function rawWebhookText(raw: unknown): string | null {
  if (typeof raw === "string") {
    return raw.length > MAX_WEBHOOK_BYTES ? null : raw
  }
  let bytes: Uint8Array | null = null
  if (raw instanceof Uint8Array) {
    bytes = raw
  } else if (isSerialisedBuffer(raw)) {
    if (raw.data.length > MAX_WEBHOOK_BYTES || !raw.data.every(isByte)) return null
    bytes = Uint8Array.from(raw.data)
  }
  if (!bytes || bytes.length > MAX_WEBHOOK_BYTES) return null
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")
}

function isSerialisedBuffer(value: unknown): value is { type: "Buffer"; data: unknown[] } {
  if (typeof value !== "object" || value === null) return false
  const own = (key: string) => Object.prototype.hasOwnProperty.call(value, key)
  return own("type") && own("data") && (value as { type: unknown }).type === "Buffer" && Array.isArray((value as { data: unknown }).data)
}

const isByte = (n: unknown): boolean => typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 255

/**
 * The notification as PayLater sent it: parsed from the raw bytes when we have them, and only
 * otherwise from the JSON Medusa parsed. Parsed objects are copied on their way through workflows
 * and event buses, and such copies mishandle members named `__proto__` or `hasOwnProperty`; the raw
 * text is what was signed and survives every copy unchanged (decoded from whichever form the event
 * bus gave it, see rawWebhookText).
 */
export function readWebhookBody(payload: ProviderWebhookPayload["payload"] | undefined): unknown {
  const data = payload?.data
  const raw: unknown = payload?.rawData
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.length === 0)) {
    return data
  }
  const textBody = rawWebhookText(raw)
  if (textBody === null) {
    return undefined
  }
  try {
    return JSON.parse(textBody)
  } catch {
    return undefined
  }
}

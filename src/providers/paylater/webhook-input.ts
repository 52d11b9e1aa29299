import type { ProviderWebhookPayload } from "@medusajs/framework/types"

/** PayLater notifications are a few hundred bytes; anything far larger is not one of them. */
export const MAX_WEBHOOK_BYTES = 64 * 1024

/**
 * The notification as PayLater sent it: parsed from the raw bytes when we have them, and only
 * otherwise from the JSON Medusa parsed. Parsed objects are copied on their way through workflows
 * and event buses, and such copies mishandle members named `__proto__` or `hasOwnProperty`; the raw
 * text is what was signed and survives every copy unchanged.
 */
export function readWebhookBody(payload: ProviderWebhookPayload["payload"] | undefined): unknown {
  const data = payload?.data
  const raw = payload?.rawData
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.length === 0)) {
    return data
  }
  const textBody = Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw)
  if (textBody.length > MAX_WEBHOOK_BYTES) {
    return undefined
  }
  try {
    return JSON.parse(textBody)
  } catch {
    return undefined
  }
}

import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { toAmountText } from "./money"

/**
 * Set by our webhook route when it only needs to know whether a notification is genuine, to answer
 * PayLater at once: the provider then verifies and reads nothing from the database, and answers
 * NOT_SUPPORTED so that nothing can be processed on that answer (Medusa's own /hooks/payment route
 * passes request headers through, so anyone could set it; it can only make the provider do less).
 */
export const VERIFY_ONLY_HEADER = "x-paylater-verify-only"

/** When our route received the notification (ISO 8601), carried to the deferred subscribers. */
export const RECEIVED_AT_HEADER = "x-paylater-received-at"

export function headerOf(payload: ProviderWebhookPayload["payload"] | undefined, name: string): string | undefined {
  const headers = payload?.headers as Record<string, unknown> | undefined
  if (!headers || typeof headers !== "object" || !Object.prototype.hasOwnProperty.call(headers, name)) {
    return undefined
  }
  const value = headers[name]
  return typeof value === "string" ? value : undefined
}

// PayLater notifications are a few hundred bytes; anything far larger is not one of them.
const MAX_RAW_BYTES = 64 * 1024

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
  if (textBody.length > MAX_RAW_BYTES) {
    return undefined
  }
  try {
    return JSON.parse(textBody)
  } catch {
    return undefined
  }
}

interface SessionRow {
  id: string
  amount?: unknown
  raw_amount?: unknown
}

interface SessionLister {
  list(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<SessionRow[]>
}

/**
 * Looks the session up in the payment module the provider lives in. Unknown sessions must not reach
 * processPaymentWorkflow (it would fail on a missing session); the amount fills the webhook result,
 * since PayLater's notification carries none.
 */
export async function findSessionForWebhook(
  container: Record<string, unknown>,
  sessionId: string
): Promise<{ id: string; amount: string } | null> {
  let service: SessionLister | undefined
  try {
    service = container.paymentSessionService as SessionLister | undefined
  } catch {
    service = undefined
  }
  if (!service || typeof service.list !== "function") {
    throw new Error("PayLater: the payment module's session service is not available to the provider")
  }
  const [row] = await service.list({ id: sessionId }, { select: ["id", "amount", "raw_amount"], take: 1 })
  if (!row) {
    return null
  }
  const amount = (row.raw_amount ?? row.amount) as Parameters<typeof toAmountText>[0]
  return { id: row.id, amount: toAmountText(amount) }
}

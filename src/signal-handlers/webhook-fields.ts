import type { VerifiedWebhook, WebhookStatus } from "../lib/paylater"

/** What the webhook route queues once a notification passed verification. */
export const PAYLATER_WEBHOOK_EVENT = "paylater.webhook_received"

/**
 * A verified notification as queued for the deferred settlement: plain strings only, so that the
 * copies event buses make (JSON through Redis) cannot change or add anything, and the subscriber
 * settles from them without parsing or verifying the notification again.
 */
export interface PayLaterWebhookEventData {
  /** The registration whose secret verified it. */
  registration_id: string
  /** ISO 8601: when the route received it (the admin's history shows this, not the processing time). */
  received_at: string
  /** PayLater's orderId (the payment session id, with an attempt suffix after a retry). */
  order_id: string
  status: WebhookStatus
  paylater_ref: string | null
  merchant_id: string
  /** The timestamp exactly as its decimal text was signed. */
  timestamp: string
}

const STATUSES: ReadonlySet<string> = new Set<WebhookStatus>(["success", "failed", "pending"])
const MAX_FIELD = 1024

/** The fields to queue for a notification that passed verification. */
export function queuedFields(webhook: VerifiedWebhook, registrationId: string, receivedAt: string): PayLaterWebhookEventData {
  return {
    registration_id: registrationId,
    received_at: receivedAt,
    order_id: webhook.orderId,
    status: webhook.status,
    paylater_ref: webhook.paylaterRef,
    merchant_id: webhook.merchantId,
    timestamp: webhook.timestamp,
  }
}

/**
 * Reads queued fields back, own string members only, into a fresh object with fixed keys; null
 * when anything is missing or not what the route queues (an event from elsewhere, or from an
 * earlier version of the plugin).
 */
export function readQueuedFields(data: unknown): PayLaterWebhookEventData | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return null
  }
  const text = (key: keyof PayLaterWebhookEventData): string | null => {
    if (!Object.prototype.hasOwnProperty.call(data, key)) return null
    const value = (data as Record<string, unknown>)[key]
    return typeof value === "string" && value.length > 0 && value.length <= MAX_FIELD ? value : null
  }
  const registrationId = text("registration_id")
  const receivedAt = text("received_at")
  const orderId = text("order_id")
  const status = text("status")
  const merchantId = text("merchant_id")
  const timestamp = text("timestamp")
  const hasRef = Object.prototype.hasOwnProperty.call(data, "paylater_ref") && (data as Record<string, unknown>).paylater_ref !== null
  const paylaterRef = hasRef ? text("paylater_ref") : null
  if (!registrationId || !receivedAt || !orderId || !status || !STATUSES.has(status) || !merchantId || !timestamp || (hasRef && !paylaterRef)) {
    return null
  }
  return {
    registration_id: registrationId,
    received_at: receivedAt,
    order_id: orderId,
    status: status as WebhookStatus,
    paylater_ref: paylaterRef,
    merchant_id: merchantId,
    timestamp,
  }
}

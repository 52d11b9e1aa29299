import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, verifyWebhook, type VerifiedWebhook, type WebhookVerification } from "../lib/paylater"
import { sessionIdFromOrderId } from "../providers/paylater/session-data"
import { webhookEvent } from "../activity/events"
import { PAID_WITHOUT_ORDER_NEXT_STEP } from "../paid-without-order/listing"
import { recordPayLaterActivity } from "../activity/record"
import { configuredRegistrations } from "../medusa-records/registrations"
import { settlePayLaterSession, type SettlementResult } from "../settlement/settle"
import { STATUS_CALL_INTERVAL_SECONDS } from "../limits/status-interval"
import { queuedFields, readQueuedFields, type PayLaterWebhookEventData } from "./webhook-fields"

export { PAYLATER_WEBHOOK_EVENT, queuedFields, type PayLaterWebhookEventData } from "./webhook-fields"

export type NotificationVerdict =
  | { ok: true; webhook: VerifiedWebhook; registration_id: string }
  | Extract<WebhookVerification, { ok: false }>

/**
 * Verifies a parsed notification with the webhook secret of the PayLater registration(s) in the
 * configuration (read once per app): the first registration it verifies under wins. A store
 * normally has one; with several, each one's secret is tried, so a forged body fails them all.
 */
export function verifyNotification(container: MedusaContainer, body: unknown, registrationId?: string): NotificationVerdict {
  const registrations = configuredRegistrations(container).filter(
    (r) => r.options && (registrationId === undefined || r.id === registrationId)
  )
  let refused: Extract<WebhookVerification, { ok: false }> = {
    ok: false,
    reason: "malformed",
    message: "No PayLater payment provider is configured",
  }
  for (const [i, registration] of registrations.entries()) {
    const { webhookSecret, merchantId } = registration.options!.config
    const verdict = verifyWebhook(body, webhookSecret, { expectedMerchantId: merchantId })
    if (verdict.ok) {
      return { ok: true, webhook: verdict.webhook, registration_id: registration.id }
    }
    if (i === 0) refused = verdict
  }
  return refused
}

// What the admin's history stores as the notification's action (Medusa's webhook action names).
const ACTION = { success: "authorized", failed: "failed", pending: "pending" } as const

/** When the route received it; the processing time when absent or implausible. */
function receivedAt(text: string | undefined, now: Date): Date {
  const at = Date.parse(text ?? "")
  return Number.isNaN(at) || at > now.getTime() || at < now.getTime() - 24 * 3600_000 ? now : new Date(at)
}

/**
 * The deferred half of a notification our route verified and queued (src/api/paylater/webhooks):
 * settled from the queued fields, without parsing or verifying anything again. Returns the
 * settlement's result, or null when the event does not carry what the route queues.
 */
export async function settleQueuedNotification(container: MedusaContainer, data: unknown): Promise<SettlementResult | null> {
  const fields = readQueuedFields(data)
  if (!fields) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn("PayLater: a queued webhook without its verified fields was dropped")
    return null
  }
  return settleVerified(container, fields)
}

/**
 * A notification that reached us through Medusa's own unauthenticated /hooks/payment route: no
 * route of ours verified it, so it is verified here, then settled like a queued one. Returns null
 * when it is refused.
 */
export async function settleNotification(
  container: MedusaContainer,
  body: unknown,
  options: { registration_id?: string } = {}
): Promise<SettlementResult | null> {
  const verdict = verifyNotification(container, body, options.registration_id)
  if (!verdict.ok) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PayLater webhook refused: ${verdict.message}`)
    return null
  }
  return settleVerified(container, queuedFields(verdict.webhook, verdict.registration_id, new Date().toISOString()))
}

/** Settles a verified notification and records it in the admin's history. */
async function settleVerified(container: MedusaContainer, webhook: PayLaterWebhookEventData): Promise<SettlementResult> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const result = await settlePayLaterSession(container, {
    session_id: sessionIdFromOrderId(webhook.order_id),
    paylater_order_id: webhook.order_id,
    signal: "webhook",
    reported: webhook.status,
    // A success is confirmed with PayLater within the session's status-call slot, waiting for the
    // next one when a poll or a return has this interval's: the news is never dropped for it.
    throttle_seconds: STATUS_CALL_INTERVAL_SECONDS,
    wait_for_slot: true,
  })
  if (result.outcome === "detached") {
    // Settled from its ledger row (session deleted or attempt superseded): listed there if paid.
    return result
  }
  // Where the notification is recorded in the admin's history: the live session's collection, or
  // for a repeat about a placed order, the collection its ledger row names.
  const at =
    result.outcome === "already_placed"
      ? { session_id: result.attempt.session_id, payment_collection_id: result.attempt.payment_collection_id }
      : result.session
  if (!at) {
    logger.warn(`PayLater: webhook "${webhook.status}" for unknown order ${logRef(webhook.order_id)} ignored`)
    return result
  }
  if (result.outcome === "paid_without_order") {
    logger.error(
      `PayLater: payment ${logRef(webhook.order_id)} (PayLater ref ${webhook.paylater_ref ?? "?"}) is paid and recorded, but cart ${logRef(result.cart_id)} could not be turned into an order (${result.error}). ` +
        PAID_WITHOUT_ORDER_NEXT_STEP
    )
  }
  // Best effort, after the money: a failure is logged and never retried as a payment failure.
  const activity = webhookEvent(
    { orderId: webhook.order_id, status: webhook.status, timestamp: webhook.timestamp },
    { session_id: at.session_id, action: ACTION[webhook.status] }
  )
  if (activity) {
    await recordPayLaterActivity(container, {
      ...activity,
      payment_collection_id: at.payment_collection_id,
      occurred_at: receivedAt(webhook.received_at, new Date()),
    })
  }
  return result
}

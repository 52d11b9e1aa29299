import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { verifyWebhook, type VerifiedWebhook, type WebhookVerification } from "../lib/paylater"
import { sessionIdFromOrderId } from "../providers/paylater/session-data"
import { webhookEvent } from "../activity/events"
import { PAID_WITHOUT_ORDER_NEXT_STEP } from "../recovery/paid-without-order"
import { recordPayLaterActivity } from "../activity/record"
import { configuredRegistrations } from "../settlement/registrations"
import { settlePayLaterSession, type SettlementResult } from "../settlement/settle"

/** What the webhook route queues once a notification passed verification. */
export const PAYLATER_WEBHOOK_EVENT = "paylater.webhook_received"

export interface PayLaterWebhookEventData {
  /** The registration whose secret verified it. */
  registration_id: string
  /**
   * The notification exactly as received. Parsed objects are copied on their way through event
   * buses, and such copies mishandle members named `__proto__` or `hasOwnProperty`; the signed
   * text survives every copy unchanged.
   */
  raw_body: string
  /** ISO 8601: when the route received it (the admin's history shows this, not the processing time). */
  received_at: string
}

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
 * The deferred half of a notification: verified once more (the event could come from Medusa's own
 * unauthenticated /hooks/payment route too), settled, and recorded in the admin's history.
 * Returns the settlement's result, or null when the notification is refused.
 */
export async function settleNotification(
  container: MedusaContainer,
  body: unknown,
  options: { registration_id?: string; received_at?: string } = {}
): Promise<SettlementResult | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const verdict = verifyNotification(container, body, options.registration_id)
  if (!verdict.ok) {
    logger.warn(`PayLater webhook refused: ${verdict.message}`)
    return null
  }
  const { webhook } = verdict
  const result = await settlePayLaterSession(container, {
    session_id: sessionIdFromOrderId(webhook.orderId),
    paylater_order_id: webhook.orderId,
    signal: "webhook",
    reported: webhook.status,
  })
  if (result.outcome === "detached") {
    // Settled from its ledger row (session deleted or attempt superseded): listed there if paid.
    return result
  }
  if (!result.session) {
    logger.warn(`PayLater: webhook "${webhook.status}" for unknown order ${webhook.orderId} ignored`)
    return result
  }
  if (result.outcome === "paid_without_order") {
    logger.error(
      `PayLater: payment ${webhook.orderId} (PayLater ref ${webhook.paylaterRef ?? "?"}) is paid and recorded, but cart ${result.cart_id} could not be turned into an order (${result.error}). ` +
        PAID_WITHOUT_ORDER_NEXT_STEP
    )
  }
  // Best effort, after the money: a failure is logged and never retried as a payment failure.
  const activity = webhookEvent(body as Record<string, unknown>, {
    session_id: result.session.session_id,
    action: ACTION[webhook.status],
  })
  if (activity) {
    await recordPayLaterActivity(container, {
      ...activity,
      payment_collection_id: result.session.payment_collection_id,
      occurred_at: receivedAt(options.received_at, new Date()),
    })
  }
  return result
}

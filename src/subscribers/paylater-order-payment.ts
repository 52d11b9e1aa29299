import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { Modules, PaymentActions, PaymentWebhookEvents } from "@medusajs/framework/utils"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { webhookEvent } from "../workflows/paylater-activity/events"
import { recordPayLaterActivity } from "../workflows/paylater-activity/record"
import { settleOrderSession } from "../workflows/paylater-payment-state/refresh"
import { readSessionContext } from "../workflows/paylater-payment-state/session-context"
import { headerOf, readWebhookBody, RECEIVED_AT_HEADER } from "../providers/paylater/webhook-input"

const PAYLATER = /^(pp_)?paylater(-rtp)?_/

/** When our route received it; the processing time otherwise (or when the header is implausible). */
function receivedAt(payload: ProviderWebhookPayload["payload"], now: Date): Date {
  const at = Date.parse(headerOf(payload, RECEIVED_AT_HEADER) ?? "")
  return Number.isNaN(at) || at > now.getTime() || at < now.getTime() - 24 * 3600_000 ? now : new Date(at)
}

/**
 * What the plugin adds to Medusa's own payment-webhook subscriber, on the same event, after the
 * route has answered PayLater:
 * - the admin's history records the verified notification (repeats counted on one entry);
 * - point-of-sale requests (a payment collection of an order, no cart): Medusa's subscriber runs
 *   processPaymentWorkflow, whose no-cart branch authorizes the session but records no order
 *   transaction; this makes sure the order learns of the capture. Carts are left to Medusa.
 */
export default async function payLaterOrderPaymentHandler({
  event,
  container,
}: SubscriberArgs<ProviderWebhookPayload>): Promise<void> {
  const input = event.data
  if (!input?.provider || !PAYLATER.test(input.provider)) {
    return
  }
  let result
  try {
    // Verifies again: this event is also emitted by Medusa's unauthenticated /hooks/payment route.
    result = await container.resolve(Modules.PAYMENT).getWebhookActionAndData(input)
  } catch {
    return
  }
  const sessionId = result.data?.session_id
  if (result.action === PaymentActions.NOT_SUPPORTED || !sessionId) {
    return // unknown session (the provider logged it), or a verify-only answer
  }
  if (result.action === PaymentActions.AUTHORIZED) {
    const context = await readSessionContext(container, sessionId)
    if (context?.for_order) {
      await settleOrderSession(container, context)
    }
  }
  // Best effort, after the money: a failure is logged and never retried as a payment failure.
  const body = readWebhookBody(input.payload)
  if (body && typeof body === "object") {
    const activity = webhookEvent(body as Record<string, unknown>, { session_id: sessionId, action: result.action })
    if (activity) {
      await recordPayLaterActivity(container, { ...activity, occurred_at: receivedAt(input.payload, new Date()) })
    }
  }
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "paylater-order-payment" },
}

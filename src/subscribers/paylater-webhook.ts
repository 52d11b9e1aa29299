import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { readWebhookBody } from "../providers/paylater/webhook-input"
import { registrationIdOf } from "../medusa-records/registrations"
import { PAYLATER_PROVIDER } from "../medusa-records/session"
import {
  PAYLATER_WEBHOOK_EVENT,
  settleNotification,
  settleQueuedNotification,
  type PayLaterWebhookEventData,
} from "../signal-handlers/webhook"
import { settleInTurn } from "../signal-handlers/webhook-slots"

type Event = PayLaterWebhookEventData | ProviderWebhookPayload

/**
 * The deferred half of a PayLater notification, whichever route received it:
 * - our POST /paylater/webhooks: verified before it answered and queued as `paylater.webhook_received`
 *   with the verified fields; settled from those, nothing parsed or verified again;
 * - Medusa's own POST /hooks/payment/pp_paylater_<id> (`payment.webhook_received`, unauthenticated:
 *   the provider refuses forged bodies in Medusa's subscriber, and answers genuine ones
 *   NOT_SUPPORTED so that Medusa's pipeline leaves them to this one): parsed and verified here.
 * Either way, settled in src/signal-handlers/webhook.ts, in its turn: at most `webhookConcurrency`
 * at a time in this process, the rest waiting in arrival order (src/signal-handlers/webhook-slots.ts).
 * The handler resolves when its notification is settled, so the Redis bus retries a failed one.
 */
export default async function payLaterWebhookHandler({ event, container }: SubscriberArgs<Event>): Promise<void> {
  const data = event.data
  if (event.name === PAYLATER_WEBHOOK_EVENT) {
    await settleInTurn(container, () => settleQueuedNotification(container, data))
    return
  }
  const core = data as ProviderWebhookPayload
  if (!core?.provider || !PAYLATER_PROVIDER.test(`pp_${core.provider.replace(/^pp_/, "")}`)) {
    return
  }
  const registration_id = registrationIdOf(`pp_${core.provider.replace(/^pp_/, "")}`)
  await settleInTurn(container, () => settleNotification(container, readWebhookBody(core.payload), { registration_id }))
}

export const config: SubscriberConfig = {
  event: [PAYLATER_WEBHOOK_EVENT, PaymentWebhookEvents.WebhookReceived],
  context: { subscriberId: "paylater-webhook" },
}

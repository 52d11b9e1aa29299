import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { Modules, PaymentActions, PaymentWebhookEvents } from "@medusajs/framework/utils"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { settleOrderSession } from "../workflows/paylater-payment-state/refresh"
import { readSessionContext } from "../workflows/paylater-payment-state/session-context"

const PAYLATER = /^(pp_)?paylater(-rtp)?_/

/**
 * Point-of-sale requests (a payment collection of an order, no cart): Medusa's own subscriber runs
 * processPaymentWorkflow, whose no-cart branch authorizes the session but records no order
 * transaction. This one, on the same event, makes sure the order learns of the capture. Carts are
 * left entirely to Medusa's pipeline.
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
  if (result.action !== PaymentActions.AUTHORIZED || !result.data?.session_id) {
    return
  }
  const context = await readSessionContext(container, result.data.session_id)
  if (context?.for_order) {
    await settleOrderSession(container, context)
  }
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "paylater-order-payment" },
}

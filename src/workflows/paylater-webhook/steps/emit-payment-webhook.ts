import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { RECEIVED_AT_HEADER } from "../../../providers/paylater/webhook-input"

export interface EmitPaymentWebhookInput {
  provider_id: string
  /** The notification exactly as received; the provider parses it again (see readWebhookBody). */
  raw_body: string
  /** ISO 8601: when our route received it (the admin's history shows this, not the processing time). */
  received_at: string
}

// The values Medusa's own /hooks/payment route uses by default: a storefront-driven completion gets
// a head start, and a failed run is tried again. (The payment module does not expose its
// webhook_delay / webhook_retries options to other modules, so they cannot be read here.)
const DELAY_MS = 5000
const ATTEMPTS = 3

export const emitPaymentWebhookStepId = "emit-paylater-payment-webhook"

/**
 * Hands a verified notification to Medusa's payment-webhook pipeline, exactly as the core route
 * does: the payment-webhook subscriber runs the provider again and then processPaymentWorkflow.
 */
export const emitPaymentWebhookStep = createStep(
  emitPaymentWebhookStepId,
  async (input: EmitPaymentWebhookInput, { container }) => {
    await container.resolve(Modules.EVENT_BUS).emit(
      {
        name: PaymentWebhookEvents.WebhookReceived,
        data: {
          provider: input.provider_id,
          payload: {
            data: {},
            rawData: input.raw_body,
            headers: { "content-type": "application/json", [RECEIVED_AT_HEADER]: input.received_at },
          },
        },
      },
      { delay: DELAY_MS, attempts: ATTEMPTS }
    )
    return new StepResponse(undefined)
  }
)

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"

export interface EmitPaymentWebhookInput {
  provider_id: string
  /** The notification exactly as received; the provider parses it again (see readWebhookBody). */
  raw_body: string
}

// Same defaults as Medusa's /hooks/payment route: give a storefront-driven completion a head start.
const DEFAULT_DELAY_MS = 5000
const DEFAULT_ATTEMPTS = 3

export const emitPaymentWebhookStepId = "emit-paylater-payment-webhook"

/**
 * Hands a verified notification to Medusa's payment-webhook pipeline, exactly as the core route
 * does: the payment-webhook subscriber runs the provider again and then processPaymentWorkflow.
 */
export const emitPaymentWebhookStep = createStep(
  emitPaymentWebhookStepId,
  async (input: EmitPaymentWebhookInput, { container }) => {
    const payment = container.resolve(Modules.PAYMENT) as unknown as {
      options?: { webhook_delay?: number; webhook_retries?: number }
    }
    const options = payment.options ?? {}
    await container.resolve(Modules.EVENT_BUS).emit(
      {
        name: PaymentWebhookEvents.WebhookReceived,
        data: {
          provider: input.provider_id,
          payload: {
            data: {},
            rawData: input.raw_body,
            headers: { "content-type": "application/json" },
          },
        },
      },
      { delay: options.webhook_delay ?? DEFAULT_DELAY_MS, attempts: options.webhook_retries ?? DEFAULT_ATTEMPTS }
    )
    return new StepResponse(undefined)
  }
)

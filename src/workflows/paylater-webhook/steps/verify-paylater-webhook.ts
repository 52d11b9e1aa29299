import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { VERIFY_ONLY_HEADER } from "../../../providers/paylater/webhook-input"

export interface VerifyPayLaterWebhookInput {
  /** The notification exactly as received (the route has checked it is one JSON object). */
  raw_body: string
}

export interface VerifiedPayLaterWebhook {
  /** The provider that verified it, and that Medusa's pipeline will hand it to. */
  provider_id: string
  /** The payment session the notification names (it may not exist: the pipeline finds out). */
  session_id: string
}

const PAYLATER_PROVIDER = /^pp_paylater(-[a-z]+)?_/

// Payment providers are registered when the app starts and never change while it runs.
let payLaterProvider: Promise<string> | null = null

/**
 * The PayLater provider that verifies notifications and receives them in Medusa's pipeline. Link and
 * Request to Pay share one webhook URL and one webhook secret per registration, and their webhook
 * handling is the same code (the session is found by id, whichever provider owns it), so one
 * provider serves both: the hosted-link one ("pp_paylater_<id>" sorts before "pp_paylater-rtp_<id>").
 */
async function webhookProvider(container: MedusaContainer): Promise<string> {
  payLaterProvider ??= (async () => {
    const providers = await container.resolve(Modules.PAYMENT).listPaymentProviders({}, { select: ["id"] })
    const ids = providers.map((p) => p.id).filter((id) => PAYLATER_PROVIDER.test(id)).sort()
    const id = ids.find((candidate) => candidate.startsWith("pp_paylater_")) ?? ids[0]
    if (!id) {
      throw new Error("No PayLater payment provider is registered")
    }
    return id
  })()
  try {
    return await payLaterProvider
  } catch (error) {
    payLaterProvider = null // a database hiccup at start-up must not stick
    throw error
  }
}

export const verifyPayLaterWebhookStepId = "verify-paylater-webhook"

/**
 * Runs the provider's own verification (only the provider holds the secret) in verify-only mode: no
 * database read, so PayLater is answered at once. Throws when refused (403 in the route).
 */
export const verifyPayLaterWebhookStep = createStep(
  verifyPayLaterWebhookStepId,
  async (input: VerifyPayLaterWebhookInput, { container }) => {
    const providerId = await webhookProvider(container)
    const result = await container.resolve(Modules.PAYMENT).getWebhookActionAndData({
      provider: providerId,
      payload: { data: {}, rawData: input.raw_body, headers: { [VERIFY_ONLY_HEADER]: "1" } },
    })
    const sessionId = result.data?.session_id
    if (!sessionId) {
      throw new Error("The PayLater provider verified the notification but named no session")
    }
    return new StepResponse<VerifiedPayLaterWebhook>({ provider_id: providerId, session_id: sessionId })
  }
)

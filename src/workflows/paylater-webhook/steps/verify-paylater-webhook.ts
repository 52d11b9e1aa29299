import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Modules, PaymentActions } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { sessionIdFromOrderId } from "../../../providers/paylater/session-data"

export interface VerifyPayLaterWebhookInput {
  /** The notification exactly as received (the route has checked it is one JSON object). */
  raw_body: string
}

export interface VerifiedPayLaterWebhook {
  provider_id: string
  action: string
  /** Null when the notification is genuine but names no session we know. */
  session_id: string | null
}

const PAYLATER_PROVIDER = /^pp_paylater(-[a-z]+)?_/

/**
 * The provider that owns the notification's session (link and Request to Pay share one webhook URL).
 * For unknown orders any PayLater provider verifies: they share one webhook secret per registration.
 */
async function providerFor(container: MedusaContainer, rawBody: string): Promise<string> {
  const payment = container.resolve(Modules.PAYMENT)
  const orderId = orderIdOf(rawBody)
  if (orderId) {
    const [session] = await payment.listPaymentSessions(
      { id: sessionIdFromOrderId(orderId) },
      { select: ["id", "provider_id"], take: 1 }
    )
    if (session && PAYLATER_PROVIDER.test(session.provider_id)) {
      return session.provider_id
    }
  }
  const providers = await payment.listPaymentProviders({}, { select: ["id"] })
  const ids = providers.map((p) => p.id).filter((id) => PAYLATER_PROVIDER.test(id)).sort()
  // The hosted-link provider ("pp_paylater_<id>") sorts before "pp_paylater-rtp_<id>".
  const link = ids.find((id) => id.startsWith("pp_paylater_")) ?? ids[0]
  if (!link) {
    throw new Error("No PayLater payment provider is registered")
  }
  return link
}

/** The notification's own `orderId` member (never an inherited one), or null. */
function orderIdOf(rawBody: string): string | null {
  try {
    const body: unknown = JSON.parse(rawBody)
    if (typeof body !== "object" || body === null || !Object.prototype.hasOwnProperty.call(body, "orderId")) {
      return null
    }
    const orderId = (body as { orderId?: unknown }).orderId
    return typeof orderId === "string" && orderId.length > 0 && orderId.length <= 1024 ? orderId : null
  } catch {
    return null
  }
}

export const verifyPayLaterWebhookStepId = "verify-paylater-webhook"

/** Runs the provider's own verification (only the provider holds the secret); throws when refused. */
export const verifyPayLaterWebhookStep = createStep(
  verifyPayLaterWebhookStepId,
  async (input: VerifyPayLaterWebhookInput, { container }) => {
    const providerId = await providerFor(container, input.raw_body)
    const result = await container.resolve(Modules.PAYMENT).getWebhookActionAndData({
      provider: providerId,
      payload: { data: {}, rawData: input.raw_body, headers: {} },
    })
    const sessionId = result.action === PaymentActions.NOT_SUPPORTED ? null : (result.data?.session_id ?? null)
    return new StepResponse<VerifiedPayLaterWebhook>({
      provider_id: providerId,
      action: result.action,
      session_id: sessionId,
    })
  }
)

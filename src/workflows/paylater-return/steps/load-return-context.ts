import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../../../providers/paylater/session-data"

export interface ReturnContext {
  session_id: string
  provider_id: string
  session_status: string
  session_data: PayLaterSessionData
  cart_id: string | null
  order_id: string | null
}

/** Reads the session, its cart and the cart's order (if any) through Query. Null for unknown sessions. */
export async function readReturnContext(
  container: MedusaContainer,
  sessionId: string
): Promise<ReturnContext | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [session],
  } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "data", "provider_id", "payment_collection_id"],
    filters: { id: sessionId },
  })
  if (!session) {
    return null
  }
  const {
    data: [cartLink],
  } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: session.payment_collection_id },
  })
  const cartId: string | null = cartLink?.cart_id ?? null
  let orderId: string | null = null
  if (cartId) {
    const {
      data: [orderLink],
    } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
    orderId = orderLink?.order_id ?? null
  }
  return {
    session_id: session.id,
    provider_id: session.provider_id,
    session_status: session.status,
    session_data: (session.data ?? {}) as PayLaterSessionData,
    cart_id: cartId,
    order_id: orderId,
  }
}

export const loadPayLaterReturnContextStepId = "load-paylater-return-context"

export const loadPayLaterReturnContextStep = createStep(
  loadPayLaterReturnContextStepId,
  async (input: { session_id: string }, { container }) => {
    return new StepResponse(await readReturnContext(container, input.session_id))
  }
)

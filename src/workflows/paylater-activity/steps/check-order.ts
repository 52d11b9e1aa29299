import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { checkOrderWithPayLater } from "../check"

export const checkPayLaterOrderStepId = "check-paylater-order"

/**
 * Asks PayLater about the order's sessions and processes a success like a webhook. Nothing to
 * compensate: every effect is idempotent and is what the webhook would have done.
 */
export const checkPayLaterOrderStep = createStep(
  checkPayLaterOrderStepId,
  async (input: { order_id: string; actor_id?: string | null }, { container }) => {
    return new StepResponse(await checkOrderWithPayLater(container, input.order_id, input.actor_id ?? null))
  }
)

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { readOrderRequestContext } from "../order-context"

export const loadPayLaterOrderRequestStepId = "load-paylater-order-request"

export const loadPayLaterOrderRequestStep = createStep(
  loadPayLaterOrderRequestStepId,
  async (input: { order_id: string }, { container }) => {
    return new StepResponse(await readOrderRequestContext(container, input.order_id))
  }
)

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { readOrderActivityFacts } from "../load-activity"
import { buildOrderActivity } from "../timeline"

export const loadPayLaterOrderActivityStepId = "load-paylater-order-activity"

/** Read-only: the order's PayLater summary and history. */
export const loadPayLaterOrderActivityStep = createStep(
  loadPayLaterOrderActivityStepId,
  async (input: { order_id: string }, { container }) => {
    const facts = await readOrderActivityFacts(container, input.order_id)
    return new StepResponse(buildOrderActivity(facts, new Date()))
  }
)

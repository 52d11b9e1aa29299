import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { readSessionContext } from "../session-context"

export const loadPayLaterSessionContextStepId = "load-paylater-session-context"

/** Null for unknown sessions and sessions of other providers. */
export const loadPayLaterSessionContextStep = createStep(
  loadPayLaterSessionContextStepId,
  async (input: { session_id: string }, { container }) => {
    return new StepResponse(await readSessionContext(container, input.session_id))
  }
)

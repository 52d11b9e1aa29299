import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { RecordPayLaterEventInput } from "../../../modules/paylater-activity/types"
import { recordPayLaterActivity } from "../record"

export const recordPayLaterActivityStepId = "record-paylater-activity"

/** Best effort: never fails the workflow it is part of (errors are logged), nothing to undo. */
export const recordPayLaterActivityStep = createStep(
  recordPayLaterActivityStepId,
  async (input: { event: RecordPayLaterEventInput | null }, { container }) => {
    return new StepResponse(await recordPayLaterActivity(container, input.event))
  }
)

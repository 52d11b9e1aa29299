import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { loadPayLaterOrderActivityStep } from "./steps/load-order-activity"

export const payLaterOrderActivityWorkflowId = "paylater-order-activity"

/** What the admin order widget shows: reference, method, state, refund window and history. Read-only. */
export const payLaterOrderActivityWorkflow = createWorkflow(
  payLaterOrderActivityWorkflowId,
  (input: { order_id: string }) => {
    return new WorkflowResponse(loadPayLaterOrderActivityStep({ order_id: input.order_id }))
  }
)

import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { checkPayLaterOrderStep } from "./steps/check-order"
import { loadPayLaterOrderActivityStep } from "./steps/load-order-activity"

export interface CheckPayLaterOrderInput {
  order_id: string
  /** The admin user who asked, kept with the recorded check. */
  actor_id?: string | null
}

export const checkPayLaterOrderWorkflowId = "check-paylater-order"

/** "Check with PayLater now": ask, process a success like a webhook, record, answer the fresh activity. */
export const checkPayLaterOrderWorkflow = createWorkflow(
  checkPayLaterOrderWorkflowId,
  (input: CheckPayLaterOrderInput) => {
    const checks = checkPayLaterOrderStep({ order_id: input.order_id, actor_id: input.actor_id })
    const activity = loadPayLaterOrderActivityStep({ order_id: input.order_id }).config({
      name: "reload-paylater-order-activity",
    })
    return new WorkflowResponse({ checks, activity })
  }
)

import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { REFRESH_INTERVAL_SECONDS } from "../paylater-payment-state/refresh"
import { refreshPayLaterSessionStep } from "../paylater-payment-state/steps/refresh-session"
import { decideOrderRequest } from "./decide"
import { loadPayLaterOrderRequestStep } from "./steps/load-order-request"

export const payLaterOrderRequestStateWorkflowId = "paylater-order-request-state"

/** The order widget's live view: our records, refreshed from PayLater at most every few seconds. */
export const payLaterOrderRequestStateWorkflow = createWorkflow(
  payLaterOrderRequestStateWorkflowId,
  (input: { order_id: string }) => {
    const before = loadPayLaterOrderRequestStep({ order_id: input.order_id })
    const latest = transform({ before }, ({ before }) => before.latest)
    refreshPayLaterSessionStep({ context: latest, throttle_seconds: REFRESH_INTERVAL_SECONDS })
    const after = loadPayLaterOrderRequestStep({ order_id: input.order_id }).config({
      name: "reload-paylater-order-request",
    })
    return new WorkflowResponse(transform({ after }, ({ after }) => decideOrderRequest(after, new Date())))
  }
)

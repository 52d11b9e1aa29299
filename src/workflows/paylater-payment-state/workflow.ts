import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { decidePaymentState, type PayLaterPaymentState } from "./decide"
import { REFRESH_INTERVAL_SECONDS } from "./refresh"
import { loadPayLaterSessionContextStep } from "./steps/load-session-context"
import { refreshPayLaterSessionStep } from "./steps/refresh-session"

export interface PayLaterPaymentStateInput {
  session_id: string
}

export interface PayLaterPaymentStateResult {
  /** Null when no PayLater session has this id. */
  state: PayLaterPaymentState | null
}

export const payLaterPaymentStateWorkflowId = "paylater-payment-state"

/**
 * The waiting screen's answer, from our records. PayLater is asked only when the webhook has not
 * settled the session yet, and then at most once per session every few seconds.
 */
export const payLaterPaymentStateWorkflow = createWorkflow(
  payLaterPaymentStateWorkflowId,
  (input: PayLaterPaymentStateInput) => {
    const loaded = loadPayLaterSessionContextStep({ session_id: input.session_id })
    const current = refreshPayLaterSessionStep({ context: loaded, throttle_seconds: REFRESH_INTERVAL_SECONDS })
    const result = transform({ current }, ({ current }): PayLaterPaymentStateResult => ({
      state: current ? decidePaymentState(current, new Date()) : null,
    }))
    return new WorkflowResponse(result)
  }
)

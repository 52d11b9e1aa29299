import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { returnEvent } from "../paylater-activity/events"
import { recordPayLaterActivityStep } from "../paylater-activity/steps/record-activity"
import { decideReturn, type ReturnDecision, type ReturnOutcomeHint } from "./decide"
import { completeCartForPayLaterReturnStep } from "./steps/complete-cart-for-return"
import { loadPayLaterReturnContextStep, type ReturnContext } from "./steps/load-return-context"

export interface PayLaterReturnInput {
  session_id: string
  outcome?: ReturnOutcomeHint
}

export interface PayLaterReturnResult {
  /** Null when no PayLater session has this id. */
  context: ReturnContext | null
  decision: ReturnDecision | null
}

export const payLaterReturnWorkflowId = "paylater-return"

/** The shopper is back from PayLater: confirm, place the order if paid, and say where to send them. */
export const payLaterReturnWorkflow = createWorkflow(payLaterReturnWorkflowId, (input: PayLaterReturnInput) => {
  const loaded = loadPayLaterReturnContextStep({ session_id: input.session_id })

  const known = transform({ loaded }, ({ loaded }) =>
    loaded && loaded.provider_id.startsWith("pp_paylater") ? loaded : null
  )

  const completed = when("paylater-return-known-session", { known }, ({ known }) => !!known).then(() =>
    completeCartForPayLaterReturnStep({ context: known as ReturnContext })
  )

  const result = transform({ completed, input }, ({ completed, input }): PayLaterReturnResult => {
    if (!completed) {
      return { context: null, decision: null }
    }
    return {
      context: completed,
      decision: decideReturn({
        order_id: completed.order_id,
        session_status: completed.session_status,
        session_data: completed.session_data,
        outcome: input.outcome,
        now: new Date(),
      }),
    }
  })

  // For the admin's order history; best effort, never fails the shopper's redirect.
  const event = transform({ result, input }, ({ result, input }) =>
    result.context && result.decision ? returnEvent(result.context, result.decision, input.outcome) : null
  )
  recordPayLaterActivityStep({ event })

  return new WorkflowResponse(result)
})

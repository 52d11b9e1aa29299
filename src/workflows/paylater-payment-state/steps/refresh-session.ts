import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { checkEvent } from "../../paylater-activity/events"
import { recordPayLaterActivity } from "../../paylater-activity/record"
import { decidePaymentState } from "../decide"
import { refreshSessionFromPayLater } from "../refresh"
import { readSessionContext, type PayLaterSessionContext } from "../session-context"

export interface RefreshPayLaterSessionInput {
  context: PayLaterSessionContext | null
  /** Null: refresh now. */
  throttle_seconds: number | null
}

export const refreshPayLaterSessionStepId = "refresh-paylater-session"

/**
 * Asks PayLater about a session the webhook has not settled yet (throttled), places the order if it
 * was paid, and returns the session as it is afterwards. Nothing to undo: every effect is idempotent
 * and is what the webhook would have done.
 */
export const refreshPayLaterSessionStep = createStep(
  refreshPayLaterSessionStepId,
  async (input: RefreshPayLaterSessionInput, { container }) => {
    const { context } = input
    if (!context) {
      return new StepResponse(null)
    }
    const asked = await refreshSessionFromPayLater(container, context, input.throttle_seconds)
    if (!asked) {
      return new StepResponse(context)
    }
    const after = await readSessionContext(container, context.session_id)
    if (after) {
      // For the admin's order history, not awaited: one row per answer, repeats counted.
      const answered = after.session_data.paylater_status_checked_at !== context.session_data.paylater_status_checked_at
      void recordPayLaterActivity(
        container,
        checkEvent({
          session_id: after.session_id,
          paylater_order_id: after.session_data.paylater_order_id ?? null,
          source: after.for_order ? "order_widget" : "storefront",
          paylater_status: answered ? (after.session_data.paylater_status ?? "unknown") : "unreachable",
          state: decidePaymentState(after, new Date()).status,
        })
      )
    }
    return new StepResponse(after)
  }
)

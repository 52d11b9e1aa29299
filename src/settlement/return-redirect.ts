import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { fillTemplate } from "../providers/paylater/templates"
import type { ReturnDecision } from "../modules/paylater-activity/attempt-state"

/**
 * The storefront URL for a return decision (attempt-state.ts decides it), from the templates the
 * provider wrote into the session: the return route never trusts a URL from the request.
 */
export function redirectFor(
  context: { session_id: string; session_data: PayLaterSessionData; cart_id: string | null },
  decision: ReturnDecision
): string | null {
  const templates = context.session_data.paylater_redirects
  if (!templates || typeof templates !== "object") {
    return null
  }
  const values = { cart_id: context.cart_id ?? "", session_id: context.session_id }
  switch (decision.kind) {
    case "success":
      return fillTemplate(templates.success, { ...values, order_id: decision.order_id })
    case "failure":
      return fillTemplate(templates.failure, { ...values, reason: decision.reason })
    case "pending":
      return fillTemplate(templates.pending, values)
  }
}

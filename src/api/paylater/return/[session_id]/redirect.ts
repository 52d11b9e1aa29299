import { fillTemplate } from "../../../../providers/paylater/templates"
import type { ReturnDecision } from "../../../../workflows/paylater-return/decide"
import type { ReturnContext } from "../../../../workflows/paylater-return/steps/load-return-context"

/** The storefront URL for a decision, from the templates the provider wrote into the session. */
export function redirectFor(context: ReturnContext, decision: ReturnDecision): string | null {
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

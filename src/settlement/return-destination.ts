import type { PayLaterFailureReason, PayLaterSessionData } from "../providers/paylater/session-data"
import { fillTemplate } from "../providers/paylater/templates"

export type ReturnOutcomeHint = "success" | "fail" | undefined

export interface ReturnFacts {
  order_id: string | null
  session_status: string | null
  session_data: PayLaterSessionData
  /** What the URL PayLater used says; a UX hint only, it never makes anything paid. */
  outcome: ReturnOutcomeHint
  now: Date
}

export type ReturnDecision =
  | { kind: "success"; order_id: string }
  /** `paid_not_placed`: PayLater took the money but the cart could not become an order (it is refunded or held). */
  | { kind: "failure"; reason: PayLaterFailureReason | "paid_not_placed" }
  | { kind: "pending" }

/**
 * Where the shopper goes, from what PayLater's status operation said (recorded on the session by
 * authorizePayment during cart completion) and whether an order exists. Only an order proves payment.
 */
export function decideReturn(facts: ReturnFacts): ReturnDecision {
  if (facts.order_id) {
    return { kind: "success", order_id: facts.order_id }
  }
  const data = facts.session_data
  const code = data.paylater_status_code
  if (facts.session_status === "error" || code === 3) {
    return { kind: "failure", reason: data.paylater_failure_reason ?? "declined" }
  }
  if (code === 2) {
    // Paid, yet the cart could not become an order (stock, a changed cart): never "declined".
    return { kind: "failure", reason: "paid_not_placed" }
  }
  const expiresAt = data.expires_at ? Date.parse(data.expires_at) : NaN
  if (!Number.isNaN(expiresAt) && facts.now.getTime() >= expiresAt) {
    return { kind: "failure", reason: "expired" }
  }
  // Back through the failure URL without a decision: the shopper left PayLater's page.
  if (facts.outcome === "fail") {
    return { kind: "failure", reason: "abandoned" }
  }
  return { kind: "pending" }
}

/** The storefront URL for a decision, from the templates the provider wrote into the session. */
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

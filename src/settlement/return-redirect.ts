import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { fillTemplate } from "../providers/paylater/templates"
import type { MedusaContainer } from "@medusajs/framework/types"
import { holdsOrderMoney, returnDecisionOf, type ReturnDecision, type ReturnOutcomeHint } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { withStorefront } from "../providers/paylater/templates"
import { registrationOf } from "./detached-attempt"
import { registeredProviderOptions } from "../medusa-records/registrations"

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

/**
 * A shopper back from PayLater for an attempt whose session is gone (the checkout restarted, or a
 * completion failed): where its row says, with the registration's own templates.
 */
export function detachedReturnUrl(container: MedusaContainer, row: AttemptRecord, hint: ReturnOutcomeHint): string | null {
  const registration = registrationOf(container, row)
  const options = registration ? registeredProviderOptions(container, registration.provider_id) : null
  if (!options) return null
  const { templates, storefrontUrl } = options
  const session_data = {
    paylater_redirects: {
      success: withStorefront(templates.success, storefrontUrl),
      failure: withStorefront(templates.failure, storefrontUrl),
      pending: withStorefront(templates.pending, storefrontUrl),
    },
  }
  // The order whose money this row holds (the ledger says so): its confirmation. Any other order of
  // the cart is not this money's, so a paid one is "paid, not placed" (listed, refunded or held).
  const orderId = holdsOrderMoney(row) ? row.order_id : null
  const decision = returnDecisionOf({ state: row.state, expires_at: row.expires_at, order_id: orderId, completion_failed: true }, hint, new Date())
  return redirectFor({ session_id: row.session_id, session_data, cart_id: row.cart_id }, decision)
}

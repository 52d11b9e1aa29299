import { fillTemplate, withStorefront } from "../providers/paylater/templates"
import type { MedusaContainer } from "@medusajs/framework/types"
import { holdsOrderMoney, returnDecisionOf, type ReturnDecision, type ReturnOutcomeHint } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { registeredProviderOptions, registrationOfAttempt } from "../medusa-records/registrations"

/**
 * The one place a shopper's way back is built. The storefront URL for a return decision
 * (attempt-state.ts decides it), from the templates the merchant configured for the provider the
 * payment went through: never from session or payment data (which the storefront writes into and
 * Medusa copies), never from the request.
 */
export function returnUrlFor(
  container: MedusaContainer,
  providerId: string,
  ids: { session_id: string; cart_id: string | null },
  decision: ReturnDecision
): string | null {
  const options = registeredProviderOptions(container, providerId)
  if (!options) return null
  const { templates, storefrontUrl } = options
  const values = { cart_id: ids.cart_id ?? "", session_id: ids.session_id }
  switch (decision.kind) {
    case "success":
      return fillTemplate(withStorefront(templates.success, storefrontUrl), { ...values, order_id: decision.order_id })
    case "failure":
      return fillTemplate(withStorefront(templates.failure, storefrontUrl), { ...values, reason: decision.reason })
    case "pending":
      return fillTemplate(withStorefront(templates.pending, storefrontUrl), values)
  }
}

/**
 * A shopper back from PayLater for an attempt whose session is gone (the checkout restarted, or a
 * completion failed): where its row says.
 */
export function detachedReturnUrl(container: MedusaContainer, row: AttemptRecord, hint: ReturnOutcomeHint): string | null {
  const registration = registrationOfAttempt(container, row)
  if (!registration.ok) return null
  // The order whose money this row holds (the ledger says so): its confirmation. Any other order of
  // the cart is not this money's, so a paid one is "paid, not placed" (listed, refunded or held).
  const orderId = holdsOrderMoney(row) ? row.order_id : null
  const decision = returnDecisionOf({ state: row.state, expires_at: row.expires_at, order_id: orderId, completion_failed: true }, hint, new Date())
  return returnUrlFor(container, registration.provider_id, { session_id: row.session_id, cart_id: row.cart_id }, decision)
}

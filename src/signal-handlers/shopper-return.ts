import type { MedusaContainer } from "@medusajs/framework/types"
import { returnEvent } from "../activity/events"
import { recordPayLaterActivity } from "../activity/record"
import { returnDecisionOf, type ReturnOutcomeHint } from "../modules/paylater-ledger/attempt-state"
import { detachedReturnUrl, returnUrlFor } from "../settlement/return-redirect"
import { settlePayLaterSession } from "../settlement/settle"
import { STATUS_CALL_INTERVAL_SECONDS } from "../limits/status-interval"

/**
 * A return visit asks PayLater about the session at most once per this many seconds, whichever
 * instance serves it (the return route is public: a session id must not buy unlimited calls).
 */
export const RETURN_STATUS_INTERVAL_SECONDS = STATUS_CALL_INTERVAL_SECONDS

/**
 * The shopper is back from PayLater: settle (the order is placed only if PayLater says paid) and
 * say where to send them. Null for sessions that are not PayLater's (or have no storefront URLs).
 */
export async function settleShopperReturn(
  container: MedusaContainer,
  sessionId: string,
  outcome: ReturnOutcomeHint
): Promise<string | null> {
  const result = await settlePayLaterSession(container, {
    session_id: sessionId,
    signal: "return",
    throttle_seconds: RETURN_STATUS_INTERVAL_SECONDS,
    wait_for_slot: true,
  })
  if (result.outcome === "detached") {
    return detachedReturnUrl(container, result.attempt, outcome)
  }
  if (!result.session) {
    // Neither a session nor any attempt of it: nothing was ever sent to PayLater for this id.
    return null
  }
  const session = result.session
  const decision = returnDecisionOf(result.facts!, outcome, new Date())
  // For the admin's order history; best effort (never throws), not waited for by the shopper.
  void recordPayLaterActivity(container, {
    ...returnEvent(session, decision, outcome),
    payment_collection_id: session.payment_collection_id,
  })
  return returnUrlFor(container, session.provider_id, { session_id: session.session_id, cart_id: session.cart_id }, decision)
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { currentAttemptOf } from "../medusa-records/session"
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
  let result
  try {
    result = await settlePayLaterSession(container, {
      session_id: sessionId,
      signal: "return",
      throttle_seconds: RETURN_STATUS_INTERVAL_SECONDS,
      wait_for_slot: true,
    })
  } catch (error) {
    return fromLedgerAfterError(container, sessionId, outcome, error)
  }
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

/**
 * Settlement threw (Medusa refused something mid-way, a database hiccup): the shopper is still sent
 * to one of the three pages (README section 5), the one the attempt's ledger row stands for now:
 * the order holding its money, "paid, not placed" when PayLater has it and no order does (the next
 * signal or the job places or lists it), else pending. Null only when nothing was ever sent for it.
 */
async function fromLedgerAfterError(container: MedusaContainer, sessionId: string, outcome: ReturnOutcomeHint, error: unknown): Promise<string | null> {
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .warn(`PayLater: the shopper's return for ${logRef(sessionId)} could not be settled (${(error as Error)?.message ?? error}); answered from the ledger.`)
  const row = await currentAttemptOf(container, sessionId)
  if (!row) throw error
  return detachedReturnUrl(container, row, outcome)
}

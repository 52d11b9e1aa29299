import type { MedusaContainer } from "@medusajs/framework/types"
import { decidePaymentState, isSettled } from "../paylater-payment-state/decide"
import { refreshSessionFromPayLater } from "../paylater-payment-state/refresh"
import { readSessionContext } from "../paylater-payment-state/session-context"
import { checkEvent, type CheckOutcome } from "./events"
import { readOrderActivityFacts } from "./load-activity"
import { recordPayLaterActivity } from "./record"
import { askPayLaterStatus } from "./remote-status"

/**
 * "Check with PayLater now" for every PayLater session of an order.
 *
 * A session that is not settled goes through the same refresh the waiting screen and the Request to
 * Pay card use (unthrottled): PayLater is asked through the provider's authorizePayment, and a
 * success is processed exactly as a verified webhook would be (processPaymentWorkflow, under the
 * cart's lock; idempotent). A settled session is only asked, read-only, and the answer compared with
 * the store's records: nothing PayLater says can unpay a captured payment or revive a failed one.
 * Each check is recorded in the activity log.
 */
export async function checkOrderWithPayLater(
  container: MedusaContainer,
  orderId: string,
  actorId: string | null
): Promise<CheckOutcome[]> {
  const facts = await readOrderActivityFacts(container, orderId)
  const outcomes: CheckOutcome[] = []
  for (const session of facts.sessions) {
    const before = await readSessionContext(container, session.id)
    if (!before) continue
    const stateBefore = decidePaymentState(before, new Date())
    const paylaterOrderId = before.session_data.paylater_order_id ?? null
    let outcome: CheckOutcome
    if (!isSettled(stateBefore)) {
      const checkedBefore = before.session_data.paylater_status_checked_at ?? null
      await refreshSessionFromPayLater(container, before, null)
      const after = (await readSessionContext(container, session.id)) ?? before
      const stateAfter = decidePaymentState(after, new Date())
      const answered = (after.session_data.paylater_status_checked_at ?? null) !== checkedBefore
      outcome = {
        session_id: session.id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: answered ? (after.session_data.paylater_status ?? "unknown") : "unreachable",
        state: stateAfter.status,
        processed: stateAfter.status === "paid" || stateAfter.status === "processing",
        actor_id: actorId,
      }
    } else {
      // Heals a point-of-sale order transaction if one is missing; asks nothing for settled sessions.
      await refreshSessionFromPayLater(container, before, null)
      const status = paylaterOrderId ? await askPayLaterStatus(container, session.provider_id, paylaterOrderId) : null
      const answer = status?.state ?? "unreachable"
      const paidHere = stateBefore.status === "paid" || stateBefore.status === "processing"
      outcome = {
        session_id: session.id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: answer,
        state: stateBefore.status,
        mismatch: status ? paidHere !== (status.code === 2) : false,
        actor_id: actorId,
      }
    }
    await recordPayLaterActivity(container, checkEvent(outcome))
    outcomes.push(outcome)
  }
  return outcomes
}

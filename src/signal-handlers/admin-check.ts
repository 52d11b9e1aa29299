import type { MedusaContainer } from "@medusajs/framework/types"
import { askPayLaterStatus } from "../activity/remote-status"
import { checkEvent, type CheckOutcome } from "../activity/events"
import { readOrderActivity, readOrderActivityFacts } from "../activity/load-activity"
import { recordPayLaterActivity } from "../activity/record"
import type { OrderActivity } from "../activity/timeline"
import { isFinalView } from "../modules/paylater-ledger/attempt-state"
import { viewOfSession } from "../settlement/attempt-view"
import { readPayLaterSession } from "../medusa-records/session"
import { settlePayLaterSession } from "../settlement/settle"
import { lastStatusOf } from "../activity/attempt-facts"

/**
 * "Check with PayLater now" for every PayLater session of an order.
 *
 * A session that is not settled is settled now (unthrottled: an explicit staff action), exactly as
 * a webhook's success would be. A settled session is only asked, read-only, and the answer compared
 * with the store's records: nothing PayLater says can unpay a captured payment or revive a failed
 * one. Each check is recorded in the activity log.
 */
export async function checkOrderWithPayLater(
  container: MedusaContainer,
  orderId: string,
  actorId: string | null
): Promise<CheckOutcome[]> {
  const facts = await readOrderActivityFacts(container, orderId)
  const outcomes: CheckOutcome[] = []
  for (const { id } of facts.sessions) {
    const before = await readPayLaterSession(container, id)
    if (!before) continue
    const stateBefore = viewOfSession(before, new Date())
    const paylaterOrderId = before.attempt?.paylater_order_id ?? null
    let outcome: CheckOutcome
    // Settling a paid session asks nothing; for a point-of-sale one it heals a missing order transaction.
    const result = await settlePayLaterSession(container, { session_id: id, signal: "admin" })
    if (!isFinalView(stateBefore) && result.session) {
      const stateAfter = viewOfSession(result.session, new Date())
      outcome = {
        session_id: id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: result.outcome === "unavailable" ? "unreachable" : (lastStatusOf(result.session.attempt) ?? "unknown"),
        state: stateAfter.status,
        processed: stateAfter.status === "paid" || stateAfter.status === "processing",
        actor_id: actorId,
      }
    } else {
      const status = paylaterOrderId ? await askPayLaterStatus(container, before.provider_id, paylaterOrderId) : null
      const paidHere = stateBefore.status === "paid" || stateBefore.status === "processing"
      outcome = {
        session_id: id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: status?.state ?? "unreachable",
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

/** The admin route's answer: the checks, then the order's history as it is afterwards. */
export async function checkOrderAndReload(
  container: MedusaContainer,
  orderId: string,
  actorId: string | null
): Promise<{ checks: CheckOutcome[]; activity: OrderActivity }> {
  const checks = await checkOrderWithPayLater(container, orderId, actorId)
  return { checks, activity: await readOrderActivity(container, orderId) }
}

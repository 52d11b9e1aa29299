import type { MedusaContainer } from "@medusajs/framework/types"
import { askPayLaterAboutRow } from "../settlement/ask-paylater"
import { checkEvent, type CheckOutcome } from "../activity/events"
import { readOrderActivity, readOrderActivityFacts } from "../activity/load-activity"
import { recordPayLaterActivity } from "../activity/record"
import type { OrderActivity } from "../activity/timeline"
import { moneyTakenIn, viewOf } from "../modules/paylater-ledger/attempt-state"
import { settlePayLaterSession } from "../settlement/settle"
import { lastStatusOf } from "../activity/attempt-facts"
import { STATUS_CALL_INTERVAL_SECONDS, waitForStatusSlot } from "../limits/status-interval"
import { takeStatusSlot } from "../medusa-effects/settlement-effects"

/**
 * "Check with PayLater now" for every PayLater session of an order.
 *
 * A session that is not settled is settled now, exactly as a webhook's success would be: within the
 * session's status-call slot, waiting for the next one when another signal has this interval's (an
 * explicit staff action is never answered from an older record). A settled session is only asked, read-only, and the answer compared
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
    // Settling a paid session asks nothing; for a point-of-sale one it heals a missing order transaction.
    const result = await settlePayLaterSession(container, {
      session_id: id,
      signal: "admin",
      throttle_seconds: STATUS_CALL_INTERVAL_SECONDS,
      wait_for_slot: true,
    })
    if (!result.session || !result.facts) continue
    const session = result.session
    const paylaterOrderId = session.attempt?.paylater_order_id ?? null
    const state = viewOf(result.facts, new Date())
    let outcome: CheckOutcome
    if (result.asked) {
      // Settlement asked PayLater (an unsettled session): its answer is on the row.
      outcome = {
        session_id: id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: result.outcome === "unavailable" ? "unreachable" : (lastStatusOf(session.attempt) ?? "unknown"),
        state: state.status,
        processed: moneyTakenIn(state),
        actor_id: actorId,
      }
    } else {
      // Settled already: PayLater is asked (at the row's own registration, the answer recorded on the
      // row) and its answer compared with the records; nothing in Medusa changes from it.
      const slot = session.attempt && (await waitForStatusSlot({ take: () => takeStatusSlot(container, id, STATUS_CALL_INTERVAL_SECONDS), wait: true }))
      const answer = session.attempt && slot ? await askPayLaterAboutRow(container, session.attempt, "admin") : null
      const status = answer?.kind === "answered" ? answer.status : null
      const paidHere = moneyTakenIn(state)
      outcome = {
        session_id: id,
        paylater_order_id: paylaterOrderId,
        source: "admin",
        paylater_status: status?.state ?? "unreachable",
        state: state.status,
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

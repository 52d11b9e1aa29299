import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import { storedAmountText } from "../providers/paylater/money"
import { recordAutomaticCheck } from "../activity/record"
import { flagPaidWithoutOrder, PAID_WITHOUT_ORDER_NEXT_STEP } from "../paid-without-order/listing"
import { settlePayLaterSession, type SettlementResult } from "../settlement/settle"
import type { AttemptCandidate, Outcome, SessionCandidate } from "./select"

/** The run's report for one settled session. */
export function outcomeOf(result: SettlementResult): Outcome {
  switch (result.outcome) {
    case "unknown_session":
      return "gone"
    case "detached": {
      const state = result.attempt.state
      if (state === "paid") return "paid_without_order"
      if (state === "declined" || state === "never_started") return "failed"
      if (state === "expired") return "expired"
      return result.asked ? "pending" : "skipped"
    }
    case "already_placed":
      return "paid"
    case "paid":
    case "paid_without_order":
    case "unavailable":
      return result.outcome
    case "failed":
      return result.reason === "expired" ? "expired" : "failed"
    case "pending":
      return result.asked ? "pending" : "skipped"
  }
}

/**
 * A live session, settled like any other signal with one difference: our clock's "expired" does
 * not stop the question (only PayLater's answer ends a payment). Not throttled: runs are minutes
 * apart and one at a time (run lock); exactly-once rests on the settlement's locks.
 */
export async function reconcileSession(container: MedusaContainer, candidate: SessionCandidate): Promise<Outcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const result = await settlePayLaterSession(container, {
    session_id: candidate.session_id,
    signal: "reconciliation",
  })
  const outcome = outcomeOf(result)
  recordAutomaticCheck(container, result, "reconciliation")
  if (result.outcome === "paid_without_order") {
    // Also listed by the settlement's announcement; repeated here (idempotent) in case that was lost.
    await flagPaidWithoutOrder(container, candidate.session_id, { signal: "reconciliation", error: result.error })
    logger.error(
      `PayLater: payment ${logRef(result.session.attempt?.paylater_order_id ?? result.session.session_id)} (PayLater ref ${result.session.attempt?.paylater_ref ?? "?"}, ${result.session.attempt ? storedAmountText(result.session.attempt) : "?"} QAR) is paid and recorded, but cart ${logRef(result.cart_id)} could not be turned into an order (Settings → PayLater lists it). ` +
        PAID_WITHOUT_ORDER_NEXT_STEP
    )
  } else if (outcome === "paid" && result.changed) {
    logger.info(`PayLater reconciliation: ${logRef(candidate.session_id)} was paid at PayLater; processed as its webhook would have been`)
  }
  return outcome
}

/**
 * A ledger row no live session stands for (deleted session, superseded attempt, a Request to Pay
 * whose answer was lost): settled from its row like any other signal. Paid means paid without an
 * order, listed once and refunded or held per `paidWithoutOrder`.
 */
export async function reconcileAttempt(container: MedusaContainer, candidate: AttemptCandidate): Promise<Outcome> {
  const row = candidate.attempt
  const result = await settlePayLaterSession(container, {
    session_id: row.session_id,
    paylater_order_id: row.paylater_order_id,
    signal: "reconciliation",
  })
  return outcomeOf(result)
}

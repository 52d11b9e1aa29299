import { viewOf, type AttemptFacts, type AttemptView } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"

/** A session as the screens see it: Medusa's own status for it, its ledger row, its order. */
export interface AttemptViewSource {
  session_status: string
  attempt: Pick<AttemptRecord, "state" | "expires_at"> | null
  order_id: string | null
}

/**
 * The facts the state machine decides from: the ledger row's (the provider writes PayLater's word
 * there before Medusa records anything). Medusa's own record of a payment (an authorized or
 * captured session) stands in only where there is no row. Never the session's data: the
 * storefront writes into it and Medusa copies it.
 */
export function attemptFactsOf(source: AttemptViewSource): AttemptFacts {
  const expires_at = source.attempt?.expires_at ?? null
  if (source.attempt) {
    return { state: source.attempt.state, expires_at }
  }
  const recorded = source.session_status === "authorized" || source.session_status === "captured"
  // Every PayLater session has its row (written before PayLater is called); none means nothing was sent.
  return { state: recorded ? "paid" : "never_started", expires_at }
}

export function viewOfSession(source: AttemptViewSource, now: Date, completionFailed = false): AttemptView {
  return viewOf({ ...attemptFactsOf(source), order_id: source.order_id, completion_failed: completionFailed }, now)
}

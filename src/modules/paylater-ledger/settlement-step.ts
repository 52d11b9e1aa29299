import { askPayLaterNow, holdsOrderMoney, type AskingSignal, type AttemptState, type SettlementSignal } from "./attempt-state"

/**
 * What settlement does next for one signal, decided once from the facts it read under its lock:
 * the ledger row(s) and Medusa's records of the session. Pure: facts in, step out. The asking rule
 * itself is `askPayLaterNow` (attempt-state.ts); this adds what settlement must do on Medusa's side.
 *
 * Medusa's session status enters only as Medusa's record of the payment (`medusa_recorded`: it
 * created the Payment), never as the attempt's state: that is the row's.
 */

export interface StepRow {
  paylater_order_id: string
  state: AttemptState
  order_id: string | null
  payment_id: string | null
  expires_at?: Date | string | null
  next_ask_at?: Date | string | null
  created_at?: Date | string | null
}

export interface StepSession {
  /** Medusa created the Payment for this session (its status is authorized or captured). */
  medusa_recorded: boolean
  cart_id: string | null
  /** The cart's order, or the order a point-of-sale collection belongs to. */
  order_id: string | null
  /** The collection belongs to an order directly (point of sale), not to a cart. */
  for_order: boolean
  /** The session's current attempt. */
  attempt: StepRow | null
  /**
   * Medusa's session is `canceled`: the money plan retired it after its money went back. Never
   * authorized again (Medusa's authorization does not check the status, and would then drop the
   * cart's other sessions, the shopper's new payment among them).
   */
  retired?: boolean
}

export interface StepFacts {
  /** The PayLater order id the signal names (a notification's, the job's), when it names one. */
  named_order_id?: string
  /** The named attempt's row. */
  named: StepRow | null
  /** The live session, null when Medusa has none (deleted, never created, another provider's). */
  session: StepSession | null
  /** With no live session and no attempt named: the session's latest attempt, if any. */
  latest_of_gone_session?: StepRow | null
}

export type SettlementStep =
  /** The named row already holds its order's money: a repeat, answered from the row alone. */
  | { step: "already_placed" }
  /** No live session stands for this attempt (deleted, superseded, lost): settled from its row. */
  | { step: "settle_detached"; attempt: "named" | "latest_of_gone_session" | "retired_session" }
  /** Neither a session nor any attempt: nothing was ever sent to PayLater for this id. */
  | { step: "unknown_session" }
  /** The cart is an order already: whose money this attempt is decides the rest. */
  | { step: "placed_cart" }
  /**
   * Medusa recorded the payment and there is no cart to complete. `heal_order_captures`: a
   * point-of-sale payment whose order transaction may still be missing.
   */
  | { step: "recorded_paid"; heal_order_captures: boolean }
  /** Medusa recorded the payment; its cart is not an order yet. */
  | { step: "complete_cart" }
  /** PayLater said paid (the row) but Medusa has not recorded it yet: record (answered from the row), then complete. */
  | { step: "record_in_medusa" }
  /** PayLater is asked and its answer recorded on the row; paid: record and complete as above. */
  | { step: "ask_paylater" }
  /**
   * Nothing to ask or do: the row answers. `reported_failed`: a notification's `failed`, which is
   * the caller's answer even though the row moves only on PayLater's status.
   */
  | { step: "answer_from_row"; reported_failed: boolean }

export function settlementStep(facts: StepFacts, signal: AskingSignal<SettlementSignal>, now: Date): SettlementStep {
  if (holdsOrderMoney(facts.named)) {
    return { step: "already_placed" }
  }
  const session = facts.session
  const namesAnother = !!facts.named_order_id && facts.named_order_id !== session?.attempt?.paylater_order_id
  if (namesAnother && facts.named) {
    // Not the attempt the live session stands for: its row is all there is to settle it by.
    return { step: "settle_detached", attempt: "named" }
  }
  if (!session) {
    return !facts.named_order_id && facts.latest_of_gone_session
      ? { step: "settle_detached", attempt: "latest_of_gone_session" }
      : { step: "unknown_session" }
  }
  if (session.retired && session.attempt) {
    return { step: "settle_detached", attempt: "retired_session" }
  }
  if (session.cart_id && session.order_id) {
    return { step: "placed_cart" }
  }
  if (session.medusa_recorded) {
    return session.cart_id ? { step: "complete_cart" } : { step: "recorded_paid", heal_order_captures: session.for_order && !!session.order_id }
  }
  const row = session.attempt
  const takenAtWord = signal.reported === "pending" || signal.reported === "failed"
  if (row?.state === "paid" && !takenAtWord) {
    return { step: "record_in_medusa" }
  }
  if (row ? askPayLaterNow(row, signal, now) : signal.reported === "success") {
    return { step: "ask_paylater" }
  }
  return { step: "answer_from_row", reported_failed: signal.reported === "failed" }
}

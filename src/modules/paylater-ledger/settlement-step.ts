import { askPayLaterNow, completionBackoffOf, completionDue, holdsOrderMoney, type AskingSignal, type AttemptState, type SettlementSignal } from "./attempt-state"
import { planMoney } from "./money-plan"
import { heldByNoOrder, type Owner } from "./whose-money"

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
  /**
   * Medusa's create of the session has not written the provider's answer yet (its data names none
   * of the session's attempts): that write sets the status the provider answered (pending) over
   * anything recorded meanwhile, and Medusa's completion then refuses the session.
   */
  medusa_creating?: boolean
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
   * point-of-sale payment whose order transaction may still be missing. `settle_current`: the
   * session's current attempt is still open, so Medusa's payment is another attempt's (a request
   * replaced while the one before it was approved): the current one is settled from its row, asked
   * about and listed if paid, like a cart's in `placed_cart`; the answer is that settlement's.
   */
  | { step: "recorded_paid"; heal_order_captures: boolean; settle_current: boolean }
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
  /**
   * One of the steps above that write Medusa's session (record, complete, place), while Medusa's own
   * create of that session is still to write it: waited for, then decided again as created.
   */
  | { step: "await_medusa_create" }

/** The steps that write Medusa's record of the session (authorize it, complete its cart, add its order's capture). */
const WRITES_MEDUSA_SESSION = new Set<SettlementStep["step"]>(["placed_cart", "recorded_paid", "complete_cart", "record_in_medusa", "ask_paylater"])

export function settlementStep(facts: StepFacts, signal: AskingSignal<SettlementSignal>, now: Date): SettlementStep {
  const step = liveSessionStep(facts, signal, now)
  return facts.session?.medusa_creating && WRITES_MEDUSA_SESSION.has(step.step) ? { step: "await_medusa_create" } : step
}

function liveSessionStep(facts: StepFacts, signal: AskingSignal<SettlementSignal>, now: Date): SettlementStep {
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
    if (session.cart_id) return { step: "complete_cart" }
    // Medusa records a payment only once PayLater's success for its attempt is on that row, so an
    // attempt the signal would still ask about is not the one Medusa's payment is for. The staff's
    // waiting screen (poll) is answered by the session's recorded payment alone.
    const current = session.attempt
    return {
      step: "recorded_paid",
      heal_order_captures: session.for_order && !!session.order_id,
      settle_current: !!current && signal.signal !== "poll" && askPayLaterNow(current, signal, now),
    }
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

/*
 * The steps below decide what a live session's settlement does after `settlementStep` chose to ask
 * PayLater, record the payment or complete the cart: each takes the facts settlement knows at that
 * point (what Medusa recorded, PayLater's answer, the authorization's result, whose money it is) and
 * names the next effect. settle.ts applies them through its ports and decides nothing itself.
 */

/** A live session settlement records and completes (steps `record_in_medusa`, `ask_paylater`, `complete_cart`). */
export type PaidSessionStep =
  /** No row: nothing was ever sent to PayLater for this session; the records answer. */
  | { step: "answer_from_row" }
  /** The row is not paid: PayLater is asked (within the interval's slot when throttled), links written with its answer. */
  | { step: "ask_paylater" }
  /** PayLater's success is on the row and Medusa has not recorded it: Medusa authorizes the session (answered from the row). */
  | { step: "record_payment" }
  /** Medusa recorded the payment already: on to its order. */
  | { step: "place" }

export function paidSessionStep(facts: { medusa_recorded: boolean; row: { state: AttemptState } | null }): PaidSessionStep {
  if (facts.medusa_recorded) return { step: "place" }
  if (!facts.row) return { step: "answer_from_row" }
  return facts.row.state === "paid" ? { step: "record_payment" } : { step: "ask_paylater" }
}

export interface AnswerFacts {
  /** What the question came to (settlement/ask-paylater.ts `RowAnswer`'s kind). */
  kind: "answered" | "unanswered" | "unrouted"
  /** The row's state after the answer was recorded (the row's state before it when not answered). */
  state: AttemptState
  /** The state before the question. */
  state_before: AttemptState
  /** PayLater's status code: 3 is a failure, Medusa's record of the session too. */
  code?: number
  /** The session's screen answer from its records is still "pending". */
  view_pending: boolean
}

export type AnswerStep =
  /** Not answered (or asked nowhere): the records answer; `asked` when PayLater's operation was called. */
  | { step: "answer_from_row"; asked: boolean }
  /** Asked, no answer, and the records say no more than pending: PayLater is unavailable, nothing changed. */
  | { step: "answer_unavailable" }
  /**
   * A failure: Medusa's authorization records it on the session, and may find a payment after all
   * (the shopper paid again on the same link and Medusa's own completion recorded it meanwhile):
   * then paid and recorded, never answered "declined".
   */
  | { step: "authorize_failure" }
  /** Not paid, not failed: the row answers; `changed` when the answer moved it. */
  | { step: "answer_not_paid"; changed: boolean }
  /** Paid: Medusa records the payment. */
  | { step: "record_payment" }

export function answerStep(facts: AnswerFacts): AnswerStep {
  if (facts.kind !== "answered") {
    const asked = facts.kind !== "unrouted"
    return asked && facts.view_pending ? { step: "answer_unavailable" } : { step: "answer_from_row", asked }
  }
  if (facts.state === "paid") return { step: "record_payment" }
  if (facts.code === 3) return { step: "authorize_failure" }
  return { step: "answer_not_paid", changed: facts.state !== facts.state_before }
}

export type RecordedStep =
  /**
   * Medusa recorded it: the row names the payment. `other_attempt`: the payment's data names another
   * attempt of the session (a retried create replaced the one it was for), which gets the link instead.
   */
  | { step: "link_payment"; other_attempt: string | null }
  /** Refused because the session went meanwhile (another session of the cart was paid first): settled from its row. */
  | { step: "settle_detached" }
  /** Refused otherwise (the cart lock was busy): the records as they are; the next signal records it. */
  | { step: "answer_from_row" }

/** After Medusa's authorization of a paid session: `authorized_for` is the attempt its payment's data names. */
export function recordedStep(facts: {
  payment_id: string | null
  authorized_for: string | null
  attempt: string | null
  /** Read again after a refusal only: the session is gone and its current row is known. */
  gone_with_row?: boolean
}): RecordedStep {
  if (!facts.payment_id) return facts.gone_with_row ? { step: "settle_detached" } : { step: "answer_from_row" }
  return { step: "link_payment", other_attempt: facts.authorized_for && facts.authorized_for !== facts.attempt ? facts.authorized_for : null }
}

export type PlaceStep =
  /** A cart's order a completion left half-made (it died before recording any payment): its records finished. */
  | { step: "finish_placed_order" }
  /** A point-of-sale order (or one with no row): the capture's order transaction recorded on it. */
  | { step: "record_order_captures" }
  /** Nothing to complete: the payment is recorded and no cart waits for it. */
  | { step: "answer_paid" }
  /** The cart is completed with Medusa's own completion (when `completionStep` allows). */
  | { step: "complete_cart" }

/** Medusa recorded the payment: where it goes. After `finish_placed_order` found the order gone, asked again with `order_id` null. */
export function placeStep(facts: { cart_id: string | null; order_id: string | null; has_attempt: boolean }): PlaceStep {
  if (facts.order_id) return facts.cart_id && facts.has_attempt ? { step: "finish_placed_order" } : { step: "record_order_captures" }
  return facts.cart_id ? { step: "complete_cart" } : { step: "answer_paid" }
}

export type CompletionStep =
  /**
   * Not now: the completion's backoff after a failure (`retrying`: a later try may place it), or its
   * money went back (never). Paid without an order, not tried.
   */
  | { step: "not_now"; error: string; retrying: boolean }
  /** Whether any of the money went back is read next (the ledger's `moneyGivenBack`). */
  | { step: "read_given_back" }
  | { step: "complete_cart" }

/**
 * Whether a paid cart is completed now: not more often than the attempt's backoff allows after a
 * failure (a sold-out cart is not completed again on every poll), and only when the money plan says
 * this money may become an order (`planMoney`: never once any of it went back to the shopper).
 */
export function completionStep(
  facts: {
    row: { paylater_order_id: string; completion_tries?: number | null; completion_next_at?: Date | string | null; completion_error?: string | null } | null
    /** Read only once the backoff allows a try (undefined before). */
    given_back?: boolean
  },
  now: Date
): CompletionStep {
  const backoff = completionBackoffOf(facts.row)
  if (!completionDue(backoff, now)) return { step: "not_now", error: backoff!.last_error, retrying: true }
  if (!facts.row) return { step: "complete_cart" }
  if (facts.given_back === undefined) return { step: "read_given_back" }
  // The cart is not an order yet: the money is no order's, and the plan decides whether it may become this one.
  // Only the Medusa side is read here: whether the money may become the order.
  const plan = planMoney({ owner: { owner: "no_order" }, given_back: facts.given_back, medusa_session: null, medusa_payment: null, refunded_in_full: false })
  return plan.may_become_order ? { step: "complete_cart" } : { step: "not_now", error: "its payment is refunded (paid without an order)", retrying: false }
}

export interface PlacedCartFacts {
  /** The session's current row, when it has one. */
  row: { order_id: string | null } | null
  session_gone: boolean
  order_id: string | null
  cart_id: string | null
  /** Read when asked for (`read_collection`): the session's collection holds no Medusa payment. */
  collection_holds_no_payment?: boolean
  /** Answered when asked for (`undo_leftover`): the cart's order was a failed completion's leftover, rolled back. */
  leftover_undone?: boolean
  /** Decided when asked for (`decide_owner`, whoseMoney). */
  owner?: Owner
}

export type PlacedCartStep =
  | { step: "answer_from_row" }
  | { step: "read_collection" }
  /**
   * Medusa's completion placed the order and died before recording any payment (fault campaign):
   * this live session's payment is the order's, authorized and captured onto it.
   */
  | { step: "record_onto_order" }
  | { step: "undo_leftover" }
  /** The leftover was rolled back: the cart is completed again with Medusa's checks (placed, or paid without an order). */
  | { step: "complete_again" }
  | { step: "decide_owner" }
  /** Held by the order, or its completion is still writing which payment it holds (the list decides again later). */
  | { step: "answer_order_holds"; order_id: string; read_row: boolean }
  /** Not the order's: settled from its row (and listed if paid), never a second Medusa payment on the order. */
  | { step: "settle_detached" }

/**
 * The session's cart is an order (step `placed_cart`): whether this attempt's payment is the order's,
 * asked one fact at a time (each read only when the ones before leave the question open).
 */
export function placedCartStep(facts: PlacedCartFacts): PlacedCartStep {
  const row = facts.row
  if (!row) return { step: "answer_from_row" }
  if (!row.order_id && !facts.session_gone) {
    if (facts.collection_holds_no_payment === undefined) return { step: "read_collection" }
    if (facts.collection_holds_no_payment) return { step: "record_onto_order" }
  }
  if (!row.order_id && facts.order_id && facts.cart_id) {
    if (facts.leftover_undone === undefined) return { step: "undo_leftover" }
    if (facts.leftover_undone) return { step: "complete_again" }
  }
  const owner = facts.owner
  if (!owner) return { step: "decide_owner" }
  // `read_row`: the decision just recorded the owner on the row, which is read again for the answer.
  if (owner.owner === "this_order") return { step: "answer_order_holds", order_id: owner.order_id, read_row: !owner.recorded }
  if (owner.owner === "cannot_tell") return { step: "answer_order_holds", order_id: owner.order_id, read_row: false }
  return { step: "settle_detached" }
}

/**
 * This settlement's completion placed the order: held by this attempt (recorded by the completion,
 * nothing more to ask), or (the storefront completed with another method meanwhile) whose money it
 * is decides, and money no order holds is settled from its row and listed, never left silent.
 */
export function afterCompletionStep(facts: {
  attempt: string | null
  held_by: { paylater_order_id: string; state: AttemptState; order_id: string | null; payment_id: string | null } | null | undefined
  owner?: Owner
}): { step: "done" } | { step: "decide_owner" } | { step: "settle_detached" } {
  if (!facts.attempt) return { step: "done" }
  if (facts.held_by?.paylater_order_id === facts.attempt && holdsOrderMoney(facts.held_by)) return { step: "done" }
  if (!facts.owner) return { step: "decide_owner" }
  return heldByNoOrder(facts.owner) ? { step: "settle_detached" } : { step: "done" }
}

import { ATTEMPT_STATES, askPayLaterNow, type AttemptState } from "../attempt-state"
import {
  afterCompletionStep,
  answerStep,
  completionStep,
  paidSessionStep,
  placedCartStep,
  placeStep,
  recordedStep,
  settlementStep,
  type AnswerFacts,
  type PlacedCartFacts,
  type StepFacts,
  type StepRow,
  type StepSession,
} from "../settlement-step"
import { planMoney } from "../money-plan"
import type { Owner } from "../whose-money"
import type { AskingSignal, SettlementSignal } from "../attempt-state"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const FUTURE = new Date(NOW.getTime() + 10 * 60_000)

const row = (state: AttemptState, extra: Partial<StepRow> = {}): StepRow => ({
  paylater_order_id: "payses_1",
  state,
  order_id: null,
  payment_id: null,
  expires_at: FUTURE,
  ...extra,
})
const session = (extra: Partial<StepSession> = {}): StepSession => ({
  medusa_recorded: false,
  cart_id: "cart_1",
  order_id: null,
  for_order: false,
  attempt: row("open"),
  ...extra,
})
const live = (extra: Partial<StepSession> = {}, facts: Partial<StepFacts> = {}): StepFacts => ({ named: null, session: session(extra), ...facts })
const webhook = (reported: "success" | "pending" | "failed"): AskingSignal<SettlementSignal> => ({ signal: "webhook", reported })
const RETURN: AskingSignal<SettlementSignal> = { signal: "return" }
const RECONCILE: AskingSignal<SettlementSignal> = { signal: "reconciliation" }

describe("settlementStep", () => {
  it("never has Medusa authorize a session the money plan retired (canceled): its attempt is settled from its row", () => {
    const paid = row("paid")
    expect(settlementStep(live({ attempt: paid, retired: true }), RETURN, NOW)).toEqual({ step: "settle_detached", attempt: "retired_session" })
    expect(settlementStep(live({ attempt: paid, retired: false }), RETURN, NOW)).toEqual({ step: "record_in_medusa" })
  })

  it("writes nothing to a session Medusa is still creating (its write would undo the record): waits, then decides the same", () => {
    const cases: Array<[StepFacts, AskingSignal<SettlementSignal>, string]> = [
      [live({ attempt: row("open") }), webhook("success"), "ask_paylater"],
      [live({ attempt: row("paid") }), RECONCILE, "record_in_medusa"],
      [live({ medusa_recorded: true, attempt: row("paid") }), RETURN, "complete_cart"],
      [live({ order_id: "order_1" }), webhook("success"), "placed_cart"],
      [live({ medusa_recorded: true, cart_id: null, attempt: row("paid") }), RETURN, "recorded_paid"],
    ]
    for (const [facts, signal, step] of cases) {
      expect(settlementStep(facts, signal, NOW).step).toBe(step)
      expect(settlementStep({ ...facts, session: { ...facts.session!, medusa_creating: true } }, signal, NOW)).toEqual({ step: "await_medusa_create" })
    }
    // Nothing to write: answered at once, created or not; and an attempt no live session stands for is the row's alone.
    const creating = { medusa_creating: true }
    expect(settlementStep(live({ ...creating, attempt: row("open") }), webhook("pending"), NOW).step).toBe("answer_from_row")
    const named = row("paid", { paylater_order_id: "payses_1" })
    expect(settlementStep(live({ ...creating, attempt: row("starting", { paylater_order_id: "payses_1-2" }) }, { named_order_id: "payses_1", named }), webhook("success"), NOW)).toEqual({
      step: "settle_detached",
      attempt: "named",
    })
  })

  describe("which attempt", () => {
    it("answers a repeat about an attempt whose row holds its order's money from that row alone", () => {
      const named = row("paid", { order_id: "order_1", payment_id: "pay_1" })
      expect(settlementStep({ named_order_id: "payses_1", named, session: null }, webhook("success"), NOW)).toEqual({ step: "already_placed" })
      // Whatever the live session looks like.
      expect(settlementStep(live({}, { named_order_id: "payses_1", named }), webhook("pending"), NOW)).toEqual({ step: "already_placed" })
    })

    it("settles a paid row without its payment id through its session, not as placed", () => {
      const named = row("paid", { order_id: "order_1", payment_id: null })
      expect(settlementStep(live({ attempt: named }, { named_order_id: "payses_1", named }), webhook("success"), NOW).step).not.toBe("already_placed")
    })

    it("settles an attempt the live session no longer stands for (superseded) from its row", () => {
      const named = row("open", { paylater_order_id: "payses_1" })
      const facts = live({ attempt: row("open", { paylater_order_id: "payses_1-2" }) }, { named_order_id: "payses_1", named })
      expect(settlementStep(facts, webhook("success"), NOW)).toEqual({ step: "settle_detached", attempt: "named" })
    })

    it("settles a named attempt whose session is gone from its row", () => {
      expect(settlementStep({ named_order_id: "payses_1", named: row("open"), session: null }, webhook("success"), NOW)).toEqual({
        step: "settle_detached",
        attempt: "named",
      })
    })

    it("settles a gone session's latest attempt when nothing is named", () => {
      expect(settlementStep({ named: null, session: null, latest_of_gone_session: row("paid") }, RETURN, NOW)).toEqual({
        step: "settle_detached",
        attempt: "latest_of_gone_session",
      })
    })

    it("knows nothing of a session with no row and no attempt", () => {
      expect(settlementStep({ named: null, session: null, latest_of_gone_session: null }, RETURN, NOW)).toEqual({ step: "unknown_session" })
      // A notification naming an order the ledger does not have, for a session Medusa does not have.
      expect(settlementStep({ named_order_id: "payses_x-2", named: null, session: null }, webhook("success"), NOW)).toEqual({ step: "unknown_session" })
    })

    it("goes on with the live session when the named order has no row", () => {
      expect(settlementStep(live({}, { named_order_id: "payses_1-9", named: null }), webhook("success"), NOW)).toEqual({ step: "ask_paylater" })
    })
  })

  describe("the live session", () => {
    it("hands a cart that is an order already to the owner decision", () => {
      for (const medusa_recorded of [true, false]) {
        expect(settlementStep(live({ order_id: "order_1", medusa_recorded }), webhook("success"), NOW)).toEqual({ step: "placed_cart" })
      }
    })

    it("completes a cart whose payment Medusa recorded, without asking PayLater", () => {
      expect(settlementStep(live({ medusa_recorded: true, attempt: row("paid") }), RETURN, NOW)).toEqual({ step: "complete_cart" })
    })

    it("answers a recorded payment with no cart; heals a point-of-sale order's capture", () => {
      const recorded = row("paid", { payment_id: "pay_1" })
      expect(settlementStep(live({ medusa_recorded: true, cart_id: null, attempt: recorded }), RETURN, NOW)).toEqual({
        step: "recorded_paid",
        heal_order_captures: false,
        settle_current: false,
      })
      expect(settlementStep(live({ medusa_recorded: true, cart_id: null, order_id: "order_1", for_order: true, attempt: recorded }), RETURN, NOW)).toEqual({
        step: "recorded_paid",
        heal_order_captures: true,
        settle_current: false,
      })
    })

    it("settles from its row a point-of-sale session's current attempt that Medusa's payment is not for, while the signal would ask about it", () => {
      // A request replaced ("-2") while the one before it was approved and recorded: the new one stays payable.
      const pos = (attempt: StepRow, signal: AskingSignal<SettlementSignal> = RECONCILE) =>
        settlementStep(live({ medusa_recorded: true, cart_id: null, order_id: "order_1", for_order: true, attempt }), signal, NOW)
      const step = (settle_current: boolean) => ({ step: "recorded_paid", heal_order_captures: true, settle_current })
      for (const state of ["open", "starting"] as const) {
        expect(pos(row(state, { paylater_order_id: "payses_1-2" }))).toEqual(step(true))
        expect(pos(row(state, { paylater_order_id: "payses_1-2" }), webhook("success"))).toEqual(step(true))
        // Not due yet, or a notification's word that it is pending: not asked now.
        expect(pos(row(state, { paylater_order_id: "payses_1-2", next_ask_at: FUTURE }))).toEqual(step(false))
        expect(pos(row(state, { paylater_order_id: "payses_1-2" }), webhook("pending"))).toEqual(step(false))
        // The staff's waiting screen is answered by the recorded payment.
        expect(pos(row(state, { paylater_order_id: "payses_1-2" }), { signal: "poll" })).toEqual(step(false))
      }
      // Paid (the payment Medusa recorded) or ended by PayLater: nothing to ask.
      for (const state of ["paid", "declined", "expired", "never_started"] as const) {
        expect(pos(row(state, { paylater_order_id: "payses_1-2" }))).toEqual(step(false))
      }
    })

    it("records in Medusa a payment PayLater said is paid", () => {
      expect(settlementStep(live({ attempt: row("paid") }), RETURN, NOW)).toEqual({ step: "record_in_medusa" })
      expect(settlementStep(live({ attempt: row("paid") }), webhook("success"), NOW)).toEqual({ step: "record_in_medusa" })
    })

    it("takes a notification's pending or failed at its word, even about a paid row", () => {
      for (const state of ATTEMPT_STATES) {
        expect(settlementStep(live({ attempt: row(state) }), webhook("pending"), NOW)).toEqual({ step: "answer_from_row", reported_failed: false })
        expect(settlementStep(live({ attempt: row(state) }), webhook("failed"), NOW)).toEqual({ step: "answer_from_row", reported_failed: true })
      }
    })

    it("confirms a notification's success with PayLater, even for a row PayLater ended", () => {
      for (const state of ["starting", "open", "declined", "expired", "never_started"] as const) {
        expect(settlementStep(live({ attempt: row(state) }), webhook("success"), NOW)).toEqual({ step: "ask_paylater" })
      }
    })

    it("asks about a session without a row only on a notification's success", () => {
      expect(settlementStep(live({ attempt: null }), webhook("success"), NOW)).toEqual({ step: "ask_paylater" })
      expect(settlementStep(live({ attempt: null }), RETURN, NOW)).toEqual({ step: "answer_from_row", reported_failed: false })
    })
  })

  describe("over every combination", () => {
    const signals: AskingSignal<SettlementSignal>[] = [
      ...(["return", "webhook", "poll", "admin", "reconciliation"] as const).map((signal) => ({ signal })),
      webhook("success"),
      webhook("pending"),
      webhook("failed"),
    ]
    const sessions: Array<StepSession | null> = [null]
    for (const state of [...ATTEMPT_STATES, null]) {
      for (const medusa_recorded of [false, true]) {
        for (const [cart_id, order_id, for_order] of [
          ["cart_1", null, false],
          ["cart_1", "order_1", false],
          [null, "order_1", true],
          [null, null, false],
        ] as const) {
          sessions.push(session({ attempt: state ? row(state) : null, medusa_recorded, cart_id, order_id, for_order }))
        }
      }
    }
    const cases = sessions.flatMap((s) => signals.map((signal) => [s, signal] as const))

    it.each(cases)("session %j, signal %j: a step only the facts allow", (s, signal) => {
      const step = settlementStep({ named: null, session: s }, signal, NOW)
      if (!s) {
        expect(step).toEqual({ step: "unknown_session" })
        return
      }
      // Only a recorded payment completes a cart, and never one that is an order already.
      if (step.step === "complete_cart") expect(s.medusa_recorded && s.cart_id && !s.order_id).toBeTruthy()
      // A placed cart always goes to the owner decision, before anything Medusa's record says.
      if (s.cart_id && s.order_id) expect(step.step).toBe("placed_cart")
      // PayLater is never asked on a notification's pending or failed, nor about a recorded payment.
      if (step.step === "ask_paylater" || step.step === "record_in_medusa") {
        expect(signal.reported === "pending" || signal.reported === "failed").toBe(false)
        expect(s.medusa_recorded).toBe(false)
      }
      // The asking rule is askPayLaterNow's alone.
      if (!s.medusa_recorded && !(s.cart_id && s.order_id) && s.attempt && s.attempt.state !== "paid") {
        expect(step.step === "ask_paylater").toBe(askPayLaterNow(s.attempt, signal, NOW))
      }
      // A paid row is never merely answered unless a notification's word is taken as it stands.
      if (s.attempt?.state === "paid" && step.step === "answer_from_row") {
        expect(signal.reported === "pending" || signal.reported === "failed").toBe(true)
      }
    })
  })
})

describe("the live session's steps (authorizeAndComplete's decisions)", () => {
  describe("paidSessionStep", () => {
    it("goes on to the order when Medusa recorded the payment, whatever the row says", () => {
      for (const state of ATTEMPT_STATES) expect(paidSessionStep({ medusa_recorded: true, row: { state } })).toEqual({ step: "place" })
      expect(paidSessionStep({ medusa_recorded: true, row: null })).toEqual({ step: "place" })
    })

    it("answers from the records with no row, records a paid row, asks about any other", () => {
      expect(paidSessionStep({ medusa_recorded: false, row: null })).toEqual({ step: "answer_from_row" })
      expect(paidSessionStep({ medusa_recorded: false, row: { state: "paid" } })).toEqual({ step: "record_payment" })
      for (const state of ATTEMPT_STATES.filter((s) => s !== "paid")) {
        expect(paidSessionStep({ medusa_recorded: false, row: { state } })).toEqual({ step: "ask_paylater" })
      }
    })
  })

  describe("answerStep", () => {
    const facts = (extra: Partial<AnswerFacts>): AnswerFacts => ({ kind: "answered", state: "open", state_before: "open", view_pending: true, ...extra })

    it("a question that reached PayLater and got no answer: unavailable while the records say pending, else the records", () => {
      expect(answerStep(facts({ kind: "unanswered" }))).toEqual({ step: "answer_unavailable" })
      expect(answerStep(facts({ kind: "unanswered", view_pending: false }))).toEqual({ step: "answer_from_row", asked: true })
    })

    it("a row asked nowhere (no registration may be asked): the records, nothing asked", () => {
      expect(answerStep(facts({ kind: "unrouted" }))).toEqual({ step: "answer_from_row", asked: false })
      expect(answerStep(facts({ kind: "unrouted", view_pending: false }))).toEqual({ step: "answer_from_row", asked: false })
    })

    it("paid: Medusa records it", () => {
      expect(answerStep(facts({ state: "paid", code: 2 }))).toEqual({ step: "record_payment" })
    })

    it("a failure goes to Medusa's authorization (its record of the session; it may find the payment made meanwhile)", () => {
      expect(answerStep(facts({ state: "declined", code: 3 }))).toEqual({ step: "authorize_failure" })
      // Whatever the row made of it (a failure on an expired link).
      expect(answerStep(facts({ state: "expired", state_before: "expired", code: 3 }))).toEqual({ step: "authorize_failure" })
    })

    it("anything else is answered from the row, changed only when the answer moved it", () => {
      expect(answerStep(facts({ code: 1 }))).toEqual({ step: "answer_not_paid", changed: false })
      expect(answerStep(facts({ state: "open", state_before: "starting", code: 1 }))).toEqual({ step: "answer_not_paid", changed: true })
      expect(answerStep(facts({ state: "expired", code: 0 }))).toEqual({ step: "answer_not_paid", changed: true })
    })
  })

  describe("recordedStep", () => {
    it("links the payment to this attempt, or to the attempt its data names when that is another", () => {
      expect(recordedStep({ payment_id: "pay_1", authorized_for: null, attempt: "payses_1" })).toEqual({ step: "link_payment", other_attempt: null })
      expect(recordedStep({ payment_id: "pay_1", authorized_for: "payses_1", attempt: "payses_1" })).toEqual({ step: "link_payment", other_attempt: null })
      expect(recordedStep({ payment_id: "pay_1", authorized_for: "payses_1-2", attempt: "payses_1" })).toEqual({ step: "link_payment", other_attempt: "payses_1-2" })
      expect(recordedStep({ payment_id: "pay_1", authorized_for: "payses_1", attempt: null })).toEqual({ step: "link_payment", other_attempt: "payses_1" })
    })

    it("refused: a session gone meanwhile is settled from its row; otherwise the records answer", () => {
      expect(recordedStep({ payment_id: null, authorized_for: null, attempt: "payses_1", gone_with_row: true })).toEqual({ step: "settle_detached" })
      expect(recordedStep({ payment_id: null, authorized_for: null, attempt: "payses_1", gone_with_row: false })).toEqual({ step: "answer_from_row" })
      expect(recordedStep({ payment_id: null, authorized_for: null, attempt: "payses_1" })).toEqual({ step: "answer_from_row" })
    })
  })

  describe("placeStep", () => {
    it("a cart's half-made order is finished; a point-of-sale order (or one with no row) gets its capture", () => {
      expect(placeStep({ cart_id: "cart_1", order_id: "order_1", has_attempt: true })).toEqual({ step: "finish_placed_order" })
      expect(placeStep({ cart_id: null, order_id: "order_1", has_attempt: true })).toEqual({ step: "record_order_captures" })
      expect(placeStep({ cart_id: "cart_1", order_id: "order_1", has_attempt: false })).toEqual({ step: "record_order_captures" })
    })

    it("no order: the cart is completed, or with no cart the recorded payment is the answer", () => {
      expect(placeStep({ cart_id: "cart_1", order_id: null, has_attempt: true })).toEqual({ step: "complete_cart" })
      expect(placeStep({ cart_id: null, order_id: null, has_attempt: true })).toEqual({ step: "answer_paid" })
    })
  })

  describe("completionStep", () => {
    const paidRow = (extra: object = {}) => ({ paylater_order_id: "payses_1", ...extra })

    it("waits out the backoff after a failed completion, with its error, before reading anything", () => {
      const waiting = paidRow({ completion_tries: 2, completion_next_at: new Date(NOW.getTime() + 1000), completion_error: "out of stock" })
      expect(completionStep({ row: waiting }, NOW)).toEqual({ step: "not_now", error: "out of stock", retrying: true })
      expect(completionStep({ row: waiting, given_back: false }, NOW)).toEqual({ step: "not_now", error: "out of stock", retrying: true })
      const due = paidRow({ completion_tries: 2, completion_next_at: NOW, completion_error: "out of stock" })
      expect(completionStep({ row: due }, NOW)).toEqual({ step: "read_given_back" })
    })

    it("asks the money plan: money any of which went back never becomes an order", () => {
      expect(completionStep({ row: paidRow() }, NOW)).toEqual({ step: "read_given_back" })
      expect(completionStep({ row: paidRow(), given_back: false }, NOW)).toEqual({ step: "complete_cart" })
      expect(completionStep({ row: paidRow(), given_back: true }, NOW)).toEqual({ step: "not_now", error: "its payment is refunded (paid without an order)", retrying: false })
      // The one decider: the same answer as the plan's for money no order holds.
      for (const given_back of [true, false]) {
        const plan = planMoney({ owner: { owner: "no_order" }, given_back, medusa_session: null, medusa_payment: null, refunded_in_full: false })
        expect(completionStep({ row: paidRow(), given_back }, NOW).step === "complete_cart").toBe(plan.may_become_order)
      }
    })

    it("a session with no row (Medusa's record only) is completed: there is no refund of it to read", () => {
      expect(completionStep({ row: null }, NOW)).toEqual({ step: "complete_cart" })
    })
  })

  describe("placedCartStep", () => {
    const thisOrder = (recorded: boolean): Owner => ({ owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded, medusa_holds: true })
    const placed = (extra: Partial<PlacedCartFacts> = {}): PlacedCartFacts => ({ row: { order_id: null }, session_gone: false, order_id: "order_1", cart_id: "cart_1", ...extra })
    // Past the healing questions: the collection holds a payment, the order is no leftover.
    const decided = (owner: Owner) => placed({ collection_holds_no_payment: false, leftover_undone: false, owner })

    it("no row: the records answer", () => {
      expect(placedCartStep(placed({ row: null }))).toEqual({ step: "answer_from_row" })
    })

    it("a live session whose row holds no order: asks whether the order's collection holds any payment, and records this one onto it if none", () => {
      expect(placedCartStep(placed())).toEqual({ step: "read_collection" })
      expect(placedCartStep(placed({ collection_holds_no_payment: true }))).toEqual({ step: "record_onto_order" })
      // A gone session is never authorized onto the order; a row naming its order needs no healing.
      expect(placedCartStep(placed({ session_gone: true }))).toEqual({ step: "undo_leftover" })
      expect(placedCartStep(placed({ row: { order_id: "order_1" } }))).toEqual({ step: "decide_owner" })
    })

    it("then whether the cart's order is a failed completion's leftover: rolled back, the cart is completed again", () => {
      expect(placedCartStep(placed({ collection_holds_no_payment: false }))).toEqual({ step: "undo_leftover" })
      expect(placedCartStep(placed({ collection_holds_no_payment: false, leftover_undone: true }))).toEqual({ step: "complete_again" })
      expect(placedCartStep(placed({ collection_holds_no_payment: false, leftover_undone: false }))).toEqual({ step: "decide_owner" })
      // Only a cart's order is undone.
      expect(placedCartStep(placed({ collection_holds_no_payment: false, cart_id: null }))).toEqual({ step: "decide_owner" })
    })

    it("the order's money, or its completion still writing who holds it: answered as the order's", () => {
      expect(placedCartStep(decided(thisOrder(true)))).toEqual({ step: "answer_order_holds", order_id: "order_1", read_row: false })
      // Just recorded by the decision: the row is read again for the answer.
      expect(placedCartStep(decided(thisOrder(false)))).toEqual({ step: "answer_order_holds", order_id: "order_1", read_row: true })
      expect(placedCartStep(decided({ owner: "cannot_tell", order_id: "order_1", until: NOW }))).toEqual({ step: "answer_order_holds", order_id: "order_1", read_row: false })
    })

    it("anything else is not the order's: settled from its row (and listed if paid), never a second payment on the order", () => {
      for (const owner of [{ owner: "extra", order_id: "order_1", held_by: "other_method" }, { owner: "no_order" }, { owner: "not_paid" }] as Owner[]) {
        expect(placedCartStep(decided(owner))).toEqual({ step: "settle_detached" })
      }
    })
  })

  describe("afterCompletionStep", () => {
    const held = { paylater_order_id: "payses_1", state: "paid" as const, order_id: "order_1", payment_id: "pay_1" }

    it("nothing more when the completion recorded this very attempt as the order's, or there is no attempt", () => {
      expect(afterCompletionStep({ attempt: "payses_1", held_by: held })).toEqual({ step: "done" })
      expect(afterCompletionStep({ attempt: null, held_by: null })).toEqual({ step: "done" })
    })

    it("otherwise whose money it is decides: money no order holds is settled from its row and listed", () => {
      for (const heldBy of [null, undefined, { ...held, paylater_order_id: "payses_2" }, { ...held, payment_id: null }]) {
        expect(afterCompletionStep({ attempt: "payses_1", held_by: heldBy })).toEqual({ step: "decide_owner" })
      }
      const other = { ...held, paylater_order_id: "payses_2" }
      expect(afterCompletionStep({ attempt: "payses_1", held_by: other, owner: { owner: "extra", order_id: "order_1", held_by: "paylater" } })).toEqual({ step: "settle_detached" })
      expect(afterCompletionStep({ attempt: "payses_1", held_by: other, owner: { owner: "no_order" } })).toEqual({ step: "settle_detached" })
      for (const owner of [{ owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded: true, medusa_holds: true }, { owner: "cannot_tell", order_id: "order_1", until: NOW }, { owner: "not_paid" }] as Owner[]) {
        expect(afterCompletionStep({ attempt: "payses_1", held_by: other, owner })).toEqual({ step: "done" })
      }
    })
  })
})

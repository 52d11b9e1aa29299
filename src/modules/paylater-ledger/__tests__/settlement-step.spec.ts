import { ATTEMPT_STATES, askPayLaterNow, type AttemptState } from "../attempt-state"
import { settlementStep, type StepFacts, type StepRow, type StepSession } from "../settlement-step"
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

describe("settlementStep", () => {
  it("never has Medusa authorize a session the money plan retired (canceled): its attempt is settled from its row", () => {
    const paid = row("paid")
    expect(settlementStep(live({ attempt: paid, retired: true }), RETURN, NOW)).toEqual({ step: "settle_detached", attempt: "retired_session" })
    expect(settlementStep(live({ attempt: paid, retired: false }), RETURN, NOW)).toEqual({ step: "record_in_medusa" })
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
      expect(settlementStep(live({ medusa_recorded: true, cart_id: null }), RETURN, NOW)).toEqual({ step: "recorded_paid", heal_order_captures: false })
      expect(settlementStep(live({ medusa_recorded: true, cart_id: null, order_id: "order_1", for_order: true }), RETURN, NOW)).toEqual({
        step: "recorded_paid",
        heal_order_captures: true,
      })
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

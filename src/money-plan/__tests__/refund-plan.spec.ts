import {
  ABANDONED_AFTER_MS,
  afterFailure,
  blocksCompletion,
  isAbandoned,
  isDue,
  MAX_REFUND_TRIES,
  planFor,
  planColumns,
  readPlan,
  refundDueAt,
  REFUND_WINDOW_MARGIN_MS,
  REFUND_WINDOW_MS,
  startRefund,
} from "../refund-plan"

const paidAt = new Date("2026-01-01T12:00:00.000Z")
const at = (ms: number) => new Date(paidAt.getTime() + ms)

describe("automatic refund plan of a payment without an order", () => {
  it("waits for PayLater's refund window (10 minutes after the payment) plus a margin", () => {
    const plan = planFor("refund", paidAt)
    expect(plan).toEqual({ state: "scheduled", tries: 0, next_attempt_at: at(REFUND_WINDOW_MS + REFUND_WINDOW_MARGIN_MS).toISOString(), last_error: null })
    expect(isDue(plan, at(REFUND_WINDOW_MS))).toBe(false)
    expect(isDue(plan, at(REFUND_WINDOW_MS + REFUND_WINDOW_MARGIN_MS))).toBe(true)
  })

  it("never refunds a held payment, nor one already refunding, refunded or unknown", () => {
    const later = at(24 * 3600_000)
    expect(planFor("hold", paidAt)).toMatchObject({ state: "held", next_attempt_at: null })
    expect(isDue(planFor("hold", paidAt), later)).toBe(false)
    for (const state of ["refunding", "refunded", "outcome_unknown", "stopped"] as const) {
      expect(isDue({ ...planFor("refund", paidAt), state }, later)).toBe(false)
    }
    expect(isDue(null, later)).toBe(false)
  })

  it("an unknown outcome stops every further try; a clear refusal is retried with growing pauses, then left to a person", () => {
    const plan = planFor("refund", paidAt)
    const now = at(11 * 60_000)
    expect(afterFailure(plan, now, "no answer", true)).toEqual({ state: "outcome_unknown", tries: 1, next_attempt_at: null, last_error: "no answer" })
    const first = afterFailure(plan, now, "too early", false)
    expect(first).toMatchObject({ state: "scheduled", tries: 1, next_attempt_at: new Date(now.getTime() + 2 * 60_000).toISOString() })
    const second = afterFailure(first, now, "too early", false)
    expect(second.next_attempt_at).toBe(new Date(now.getTime() + 4 * 60_000).toISOString())
    let last = plan
    for (let i = 0; i < MAX_REFUND_TRIES; i++) last = afterFailure(last, now, "refused", false)
    expect(last).toMatchObject({ state: "stopped", tries: MAX_REFUND_TRIES, next_attempt_at: null })
  })

  it("blocks the cart's completion once money may have gone back, not while it only waits", () => {
    const plan = planFor("refund", paidAt)
    expect(blocksCompletion(plan)).toBe(false)
    expect(blocksCompletion(planFor("hold", paidAt))).toBe(false)
    for (const state of ["refunding", "refunded", "outcome_unknown"] as const) {
      expect(blocksCompletion({ ...plan, state })).toBe(true)
    }
  })

  it("takes a refund whose sender died (started long ago, no answer recorded) as abandoned, never as due", () => {
    const started = startRefund(planFor("refund", paidAt), at(11 * 60_000))
    expect(started).toMatchObject({ state: "refunding", next_attempt_at: at(11 * 60_000).toISOString() })
    expect(isAbandoned(started, at(11 * 60_000 + ABANDONED_AFTER_MS))).toBe(false)
    expect(isAbandoned(started, at(11 * 60_000 + ABANDONED_AFTER_MS + 1))).toBe(true)
    expect(isDue(started, at(24 * 3600_000))).toBe(false)
    expect(isAbandoned(planFor("refund", paidAt), at(24 * 3600_000))).toBe(false)
  })

  it("reads back every plan from the columns it is stored in, and nothing from items without one", () => {
    const scheduled = planFor("refund", paidAt)
    const plans = [
      scheduled,
      startRefund(scheduled, at(11 * 60_000)),
      afterFailure(scheduled, at(11 * 60_000), "too early", false),
      afterFailure(scheduled, at(11 * 60_000), "no answer", true),
      planFor("hold", paidAt),
    ]
    for (const plan of plans) {
      const columns = planColumns(plan)
      expect(readPlan(columns)).toEqual(plan)
      // The selection's column is always written with the plan.
      expect(columns.refund_due_at).toEqual(refundDueAt(plan))
    }
    // As the database gives them back: timestamps as Date, no state on items of other kinds.
    expect(readPlan({ refund_state: "scheduled", refund_tries: 2, refund_next_at: at(0), refund_error: "x" })).toEqual({
      state: "scheduled",
      tries: 2,
      next_attempt_at: at(0).toISOString(),
      last_error: "x",
    })
    expect(readPlan({ refund_state: null, refund_tries: 0, refund_next_at: null, refund_error: null })).toBeNull()
    expect(readPlan({})).toBeNull()
    expect(readPlan(null)).toBeNull()
  })
})

describe("refundDueAt (the selection's typed column)", () => {
  const scheduled = planFor("refund", paidAt)
  const refused = afterFailure(scheduled, at(11 * 60_000), "too early", false)
  const started = startRefund(scheduled, at(11 * 60_000))
  const waitingForNothing = [
    planFor("hold", paidAt),
    { ...scheduled, state: "held" as const, next_attempt_at: null, last_error: "its registration is gone" },
    afterFailure({ ...scheduled, tries: MAX_REFUND_TRIES - 1 }, at(11 * 60_000), "refused", false),
    afterFailure(scheduled, at(11 * 60_000), "no answer", true),
    { ...scheduled, state: "refunded" as const, next_attempt_at: null },
    // A plan that names a time but waits for nothing: its time never makes it due.
    { ...scheduled, state: "stopped" as const },
  ]

  it("is null for plans the automatic refund never acts on, so they never fill its page", () => {
    for (const plan of [...waitingForNothing, null]) {
      expect(refundDueAt(plan)).toBeNull()
    }
  })

  it("is the first instant the job acts on a plan: exactly when isDue or isAbandoned turns true", () => {
    for (const plan of [scheduled, refused, started]) {
      const due = refundDueAt(plan)!
      expect(due).toBeInstanceOf(Date)
      const acts = (now: Date) => isDue(plan, now) || isAbandoned(plan, now)
      expect(acts(new Date(due.getTime() - 1))).toBe(false)
      expect(acts(due)).toBe(true)
      expect(acts(new Date(due.getTime() + 24 * 3600_000))).toBe(true)
    }
    expect(refundDueAt(scheduled)).toEqual(new Date(paidAt.getTime() + REFUND_WINDOW_MS + REFUND_WINDOW_MARGIN_MS))
    expect(refundDueAt(started)!.getTime()).toBe(at(11 * 60_000).getTime() + ABANDONED_AFTER_MS + 1)
  })
})

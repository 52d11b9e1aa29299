import fc from "fast-check"
import {
  askPayLaterNow,
  ATTEMPT_STATES,
  SIGNALS,
  completionBackoffAfter,
  completionBackoffOf,
  completionDue,
  EXPIRY_GRACE_MS,
  nextState,
  moneyTakenIn,
  returnDecisionOf,
  viewOf,
  type AttemptEvent,
  type AttemptState,
} from "../attempt-state"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const at = (ms: number) => new Date(NOW.getTime() + ms)
const FUTURE = at(10 * 60_000)
const PAST = at(-1000)

describe("nextState", () => {
  const status = (code: 0 | 1 | 2 | 3, message = ""): AttemptEvent => ({ type: "status", code, message })
  it.each<[AttemptState, AttemptEvent, Date | null, AttemptState]>([
    ["starting", { type: "started", expires_at: FUTURE }, FUTURE, "open"],
    ["starting", { type: "start_failed", maybe_landed: true }, FUTURE, "open"],
    ["starting", { type: "start_failed", maybe_landed: false }, FUTURE, "never_started"],
    ["open", { type: "start_failed", maybe_landed: false }, FUTURE, "open"],
    ["starting", status(0), FUTURE, "open"],
    ["open", status(1), FUTURE, "open"],
    ["open", status(2), FUTURE, "paid"],
    ["open", status(3), FUTURE, "declined"],
    ["open", status(3), PAST, "expired"],
    ["open", status(3, "Link expired"), FUTURE, "expired"],
    ["open", status(3), null, "declined"],
    ["declined", status(1), FUTURE, "declined"],
    ["declined", status(3, "expired"), PAST, "declined"],
    // Money moved: PayLater's later "paid" wins over an earlier end.
    ["declined", status(2), FUTURE, "paid"],
    ["expired", status(2), PAST, "paid"],
    ["never_started", status(2), FUTURE, "paid"],
    // Our clock never closes a row: unanswered questions leave it open however late.
    ["open", { type: "unanswered" }, at(-30 * 24 * 3600_000), "open"],
  ])("%s + %j (expiry %s) → %s", (state, event, expires, expected) => {
    expect(nextState({ state, expires_at: expires }, event, NOW)).toBe(expected)
  })

  const events = fc.oneof(
    fc.record({ type: fc.constant("started" as const), expires_at: fc.constant(FUTURE) }),
    fc.record({ type: fc.constant("start_failed" as const), maybe_landed: fc.boolean() }),
    fc.record({ type: fc.constant("status" as const), code: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, message: fc.constantFrom("", "expired") }),
    fc.record({ type: fc.constant("unanswered" as const) })
  )
  const expiry = fc.option(fc.integer({ min: -6 * 3600_000, max: 6 * 3600_000 }).map(at), { nil: null })

  it("never leaves paid, whatever comes after", () => {
    fc.assert(
      fc.property(fc.array(events), expiry, (sequence, expires) => {
        const end = sequence.reduce<AttemptState>((state, e) => nextState({ state, expires_at: expires }, e, NOW), "paid")
        expect(end).toBe("paid")
      })
    )
  })

  it("is paid after any sequence containing PayLater's status 2, and only then", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATES), fc.array(events), expiry, (start, sequence, expires) => {
        const end = sequence.reduce((state, e) => nextState({ state, expires_at: expires }, e, NOW), start)
        const saidPaid = sequence.some((e) => e.type === "status" && e.code === 2)
        expect(end === "paid").toBe(start === "paid" || saidPaid)
      })
    )
  })

  it("never moves from a final unpaid state except to paid", () => {
    fc.assert(
      fc.property(fc.constantFrom<AttemptState>("declined", "expired", "never_started"), events, expiry, (start, e, expires) => {
        const end = nextState({ state: start, expires_at: expires }, e, NOW)
        expect([start, "paid"]).toContain(end)
      })
    )
  })
})

describe("askPayLaterNow: the one rule for whether a signal asks PayLater", () => {
  const LONG_PAST = at(-30 * 24 * 3600_000)
  const due = { next_ask_at: at(-1) }
  const notDue = { next_ask_at: at(60_000) }
  it.each<[AttemptState, Record<string, unknown>, Parameters<typeof askPayLaterNow>[1], boolean]>([
    // Open rows: a person looking now is answered at once; an admin past the expiry too (the final status call).
    ["open", notDue, { signal: "return" }, true],
    ["starting", notDue, { signal: "poll" }, true],
    ["open", { ...notDue, expires_at: LONG_PAST }, { signal: "admin" }, true],
    // The public signals are bounded after the expiry: a session id cannot buy status calls forever.
    ["open", { expires_at: at(-EXPIRY_GRACE_MS + 1) }, { signal: "poll" }, true],
    ["open", { expires_at: at(-EXPIRY_GRACE_MS) }, { signal: "poll" }, false],
    ["open", { expires_at: at(-2 * 3600_000 + 1) }, { signal: "return" }, true],
    ["open", { expires_at: at(-2 * 3600_000) }, { signal: "return" }, false],
    ["open", { expires_at: LONG_PAST, next_ask_at: at(-1) }, { signal: "reconciliation" }, true],
    // Reconciliation: at the row's own next-ask time (fair scheduling), however late.
    ["open", due, { signal: "reconciliation" }, true],
    ["open", notDue, { signal: "reconciliation" }, false],
    ["open", { next_ask_at: null, created_at: LONG_PAST }, { signal: "reconciliation" }, true],
    // Paid is final; ended rows are not asked again...
    ["paid", due, { signal: "return" }, false],
    ["paid", due, { signal: "webhook", reported: "success" }, false],
    ["declined", due, { signal: "reconciliation" }, false],
    ["expired", due, { signal: "return" }, false],
    ["never_started", due, { signal: "admin" }, false],
    // ...unless PayLater says success, which is always confirmed (a later paid wins).
    ["declined", notDue, { signal: "webhook", reported: "success" }, true],
    ["expired", notDue, { signal: "webhook", reported: "success" }, true],
    ["open", notDue, { signal: "webhook", reported: "success" }, true],
    // A notification's pending or failed is taken at its word.
    ["open", due, { signal: "webhook", reported: "pending" }, false],
    ["open", due, { signal: "webhook", reported: "failed" }, false],
  ])("%s %j, %j → %s", (state, times, ask, expected) => {
    expect(askPayLaterNow({ state, ...times } as never, ask, NOW)).toBe(expected)
  })

  it("never asks about a paid row, and always confirms a reported success of an unpaid one", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATES), fc.constantFrom(...SIGNALS), fc.constantFrom(undefined, "success", "pending", "failed"), (state, signal, reported) => {
        const asked = askPayLaterNow({ state, next_ask_at: at(60_000) }, { signal, reported: reported as never }, NOW)
        if (state === "paid") return asked === false
        if (reported === "success") return asked === true
        if (reported) return asked === false
        return true
      })
    )
  })
})

describe("viewOf and returnDecisionOf: one rule for every screen", () => {
  const facts = (
    state: AttemptState,
    more: { expires_at?: Date | null; order_id?: string | null; completion_failed?: boolean; completion_retrying?: boolean } = {}
  ) => ({
    state,
    expires_at: more.expires_at === undefined ? FUTURE : more.expires_at,
    order_id: more.order_id ?? null,
    completion_failed: more.completion_failed,
    completion_retrying: more.completion_retrying,
  })

  it.each([
    [facts("open"), { status: "waiting", seconds_left: 600, expires_at: FUTURE.toISOString() }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: null }), { status: "waiting", seconds_left: 0, expires_at: null }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: at(-EXPIRY_GRACE_MS + 1000) }), { status: "waiting", seconds_left: 0, expires_at: at(-EXPIRY_GRACE_MS + 1000).toISOString() }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: at(-EXPIRY_GRACE_MS) }), { status: "expired" }, { kind: "failure", reason: "expired" }, { kind: "failure", reason: "expired" }],
    [facts("paid"), { status: "processing" }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { completion_failed: true }), { status: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { completion_failed: true, completion_retrying: true }), { status: "paid_not_placed", retrying: true }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { completion_retrying: true }), { status: "processing" }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { order_id: "order_1", completion_failed: true, completion_retrying: true }), { status: "paid", order_id: "order_1" }, { kind: "success", order_id: "order_1" }, { kind: "success", order_id: "order_1" }],
    [facts("paid", { order_id: "order_1" }), { status: "paid", order_id: "order_1" }, { kind: "success", order_id: "order_1" }, { kind: "success", order_id: "order_1" }],
    [facts("declined"), { status: "declined" }, { kind: "failure", reason: "declined" }, { kind: "failure", reason: "declined" }],
    [facts("never_started"), { status: "declined" }, { kind: "failure", reason: "declined" }, { kind: "failure", reason: "declined" }],
    [facts("expired"), { status: "expired" }, { kind: "failure", reason: "expired" }, { kind: "failure", reason: "expired" }],
  ])("%j", (f, view, onSuccessUrl, onFailUrl) => {
    expect(viewOf(f, NOW)).toEqual(view)
    expect(returnDecisionOf(f, "success", NOW)).toEqual(onSuccessUrl)
    expect(returnDecisionOf(f, "fail", NOW)).toEqual(onFailUrl)
  })

  it("counts money as taken exactly when PayLater's word is paid, whatever the order (the admin's check compares it with PayLater's answer)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ATTEMPT_STATES),
        fc.option(fc.constant("order_1"), { nil: null }),
        fc.boolean(),
        (state, order, failed) => {
          expect(moneyTakenIn(viewOf({ state, expires_at: FUTURE, order_id: order, completion_failed: failed }, NOW))).toBe(state === "paid")
        }
      )
    )
  })

  it("never sends a shopper to success without an order, nor shows paid without one", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ATTEMPT_STATES),
        fc.option(fc.integer({ min: -2 * 3600_000, max: 2 * 3600_000 }).map(at), { nil: null }),
        fc.option(fc.constant("order_1"), { nil: null }),
        fc.constantFrom<"success" | "fail" | undefined>("success", "fail", undefined),
        (state, expires, order, hint) => {
          const f = { state, expires_at: expires, order_id: order }
          expect(returnDecisionOf(f, hint, NOW).kind === "success").toBe(order !== null)
          expect(viewOf(f, NOW).status === "paid").toBe(state === "paid" && order !== null)
        }
      )
    )
  })
})

describe("a paid cart's completion is retried with backoff, not on every signal", () => {
  it("waits 30 s, then doubles, at most an hour", () => {
    let backoff = null as ReturnType<typeof completionBackoffAfter> | null
    const waits: number[] = []
    for (let i = 0; i < 10; i++) {
      backoff = completionBackoffAfter(backoff, "Not enough stock", NOW)
      waits.push(backoff.next_at.getTime() - NOW.getTime())
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000])
    expect(backoff).toMatchObject({ tries: 10, last_error: "Not enough stock" })
  })

  it("is due without a backoff, and again once its time came", () => {
    const backoff = completionBackoffAfter(null, "x", NOW)
    expect(completionDue(null, NOW)).toBe(true)
    expect(completionDue(backoff, at(29_999))).toBe(false)
    expect(completionDue(backoff, at(30_000))).toBe(true)
  })

  it("reads the backoff from a row's columns, none before the first failed completion", () => {
    expect(completionBackoffOf({ completion_tries: 1, completion_next_at: NOW.toISOString(), completion_error: "x" })).toEqual({
      tries: 1,
      next_at: NOW,
      last_error: "x",
    })
    expect(completionBackoffOf({ completion_tries: 0, completion_next_at: null, completion_error: null })).toBeNull()
    expect(completionBackoffOf(null)).toBeNull()
  })
})

import fc from "fast-check"
import {
  ASKING_MARGIN_MS,
  ATTEMPT_STATES,
  completionBackoffAfter,
  completionBackoffOf,
  completionDue,
  EXPIRY_GRACE_MS,
  nextState,
  returnDecisionOf,
  stillPayable,
  viewOf,
  worthAsking,
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
    ["open", { type: "lapse" }, PAST, "open"],
    ["open", { type: "lapse" }, at(-ASKING_MARGIN_MS - 1), "expired"],
    ["starting", { type: "lapse" }, at(-ASKING_MARGIN_MS), "expired"],
    ["declined", { type: "lapse" }, at(-ASKING_MARGIN_MS - 1), "declined"],
    ["open", { type: "lapse" }, null, "open"],
  ])("%s + %j (expiry %s) → %s", (state, event, expires, expected) => {
    expect(nextState({ state, expires_at: expires }, event, NOW)).toBe(expected)
  })

  const events = fc.oneof(
    fc.record({ type: fc.constant("started" as const), expires_at: fc.constant(FUTURE) }),
    fc.record({ type: fc.constant("start_failed" as const), maybe_landed: fc.boolean() }),
    fc.record({ type: fc.constant("status" as const), code: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, message: fc.constantFrom("", "expired") }),
    fc.record({ type: fc.constant("lapse" as const) })
  )
  const expiry = fc.option(fc.integer({ min: -3 * ASKING_MARGIN_MS, max: 3 * ASKING_MARGIN_MS }).map(at), { nil: null })

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

describe("who asks PayLater", () => {
  it.each<[AttemptState, Date | null, boolean, boolean, boolean]>([
    // state, expiry, stillPayable (reconciliation), worthAsking (a screen), worthAsking past expiry (admin/job)
    ["open", FUTURE, true, true, true],
    ["starting", FUTURE, true, true, true],
    ["open", at(-EXPIRY_GRACE_MS + 1), true, true, true],
    ["open", at(-EXPIRY_GRACE_MS), true, false, true],
    ["open", at(-ASKING_MARGIN_MS + 1), true, false, true],
    ["open", at(-ASKING_MARGIN_MS), false, false, false],
    ["open", null, true, true, true],
    ["paid", FUTURE, false, false, false],
    ["declined", FUTURE, false, false, false],
    ["expired", FUTURE, false, false, false],
    ["never_started", FUTURE, false, false, false],
  ])("%s expiring %s: payable %s, screen %s, past expiry %s", (state, expires, payable, screen, late) => {
    const facts = { state, expires_at: expires }
    expect(stillPayable(facts, NOW)).toBe(payable)
    expect(worthAsking(facts, NOW)).toBe(screen)
    expect(worthAsking(facts, NOW, { past_expiry: true })).toBe(late)
  })
})

describe("viewOf and returnDecisionOf: one rule for every screen", () => {
  const facts = (state: AttemptState, more: { expires_at?: Date | null; order_id?: string | null; completion_failed?: boolean } = {}) => ({
    state,
    expires_at: more.expires_at === undefined ? FUTURE : more.expires_at,
    order_id: more.order_id ?? null,
    completion_failed: more.completion_failed,
  })

  it.each([
    [facts("open"), { status: "waiting", seconds_left: 600, expires_at: FUTURE.toISOString() }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: null }), { status: "waiting", seconds_left: 0, expires_at: null }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: at(-EXPIRY_GRACE_MS + 1000) }), { status: "waiting", seconds_left: 0, expires_at: at(-EXPIRY_GRACE_MS + 1000).toISOString() }, { kind: "pending" }, { kind: "failure", reason: "abandoned" }],
    [facts("open", { expires_at: at(-EXPIRY_GRACE_MS) }), { status: "expired" }, { kind: "failure", reason: "expired" }, { kind: "failure", reason: "expired" }],
    [facts("paid"), { status: "processing" }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { completion_failed: true }), { status: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }, { kind: "failure", reason: "paid_not_placed" }],
    [facts("paid", { order_id: "order_1" }), { status: "paid", order_id: "order_1" }, { kind: "success", order_id: "order_1" }, { kind: "success", order_id: "order_1" }],
    [facts("declined"), { status: "declined" }, { kind: "failure", reason: "declined" }, { kind: "failure", reason: "declined" }],
    [facts("never_started"), { status: "declined" }, { kind: "failure", reason: "declined" }, { kind: "failure", reason: "declined" }],
    [facts("expired"), { status: "expired" }, { kind: "failure", reason: "expired" }, { kind: "failure", reason: "expired" }],
  ])("%j", (f, view, onSuccessUrl, onFailUrl) => {
    expect(viewOf(f, NOW)).toEqual(view)
    expect(returnDecisionOf(f, "success", NOW)).toEqual(onSuccessUrl)
    expect(returnDecisionOf(f, "fail", NOW)).toEqual(onFailUrl)
  })

  it("never sends a shopper to success without an order, nor shows paid without one", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ATTEMPT_STATES),
        fc.option(fc.integer({ min: -ASKING_MARGIN_MS, max: ASKING_MARGIN_MS }).map(at), { nil: null }),
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
      waits.push(Date.parse(backoff.next_at) - NOW.getTime())
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

  it("reads only a well-formed backoff from a row's detail", () => {
    expect(completionBackoffOf({ completion: { tries: 1, next_at: NOW.toISOString(), last_error: "x" } })).toMatchObject({ tries: 1 })
    expect(completionBackoffOf({ completion: { tries: "1" } })).toBeNull()
    expect(completionBackoffOf(null)).toBeNull()
  })
})

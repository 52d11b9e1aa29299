import type { AttemptRecord } from "../../modules/paylater-ledger/ledger-port"
import { nextAskAt } from "../../modules/paylater-ledger/attempt-state"
const TWO_HOURS = 2 * 3600_000
import {
  payLaterLooksDown,
  runPool,
  selectBatch,
  sessionReason,
  STUCK_AFTER_MS,
  attemptIsDue,
  type AttemptCandidate,
  type Outcome,
  type SessionCandidate,
} from "../select"
import { OWNER_SETTLES_WITHIN_MS } from "../../modules/paylater-ledger/whose-money"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString()

type Row = NonNullable<SessionCandidate["attempt"]>

function session(id: string, over: Partial<SessionCandidate> = {}, attempt: Partial<Row> = {}): SessionCandidate {
  return {
    kind: "session",
    session_id: id,
    provider_id: "pp_paylater_paylater",
    status: "pending",
    created_at: minutesAgo(30),
    authorized_at: null,
    payment_collection_id: `pay_col_${id}`,
    cart_id: `cart_${id}`,
    order_id: null,
    attempt: { paylater_order_id: id, state: "open", expires_at: minutesAgo(-30), last_status_at: null, order_id: null, ...attempt },
    ...over,
  }
}

function attempt(id: string, over: Partial<AttemptRecord> = {}): AttemptCandidate {
  return {
    kind: "attempt",
    attempt: {
      id: `platm_${id}`,
      paylater_order_id: id,
      kind: "link",
      session_id: id,
      provider_id: null,
      payment_collection_id: null,
      cart_id: null,
      order_id: null,
      payment_id: null,
      amount: "360.00",
      currency_code: "qar",
      expires_at: minutesAgo(-30),
      state: "open",
      last_status_code: null,
      last_status_at: null,
      last_status_signal: null,
      paylater_ref: null,
      superseded_by: null,
      session_gone_at: minutesAgo(35),
      start_error: null,
      detail: null,
      created_at: minutesAgo(40),
      ...over,
    },
  }
}

const select = (sessions: SessionCandidate[], attempts: AttemptCandidate[] = [], batchSize = 10, lookbackMinutes = 1440) =>
  selectBatch({ sessions, attempts, now: NOW, lookbackMinutes, batchSize })

const ids = (r: ReturnType<typeof select>) => r.batch.map((c) => (c.kind === "session" ? c.session_id : `t:${c.attempt.paylater_order_id}`))

describe("which sessions a run asks about", () => {
  it("asks about pending sessions that reached PayLater", () => {
    expect(sessionReason(session("a"), NOW, 1440)).toBe("pending")
  })

  it("skips sessions whose attempt PayLater refused outright", () => {
    expect(sessionReason(session("a", {}, { state: "never_started" }), NOW, 1440)).toBeNull()
  })

  it("a session with no ledger row never reached PayLater: nothing to ask, whatever its data says", () => {
    expect(sessionReason(session("a", { attempt: null }), NOW, 1440)).toBeNull()
  })

  it("asks about a pending attempt past its expiry, however long ago: only PayLater's answer ends it", () => {
    const expiring = (ms: number) => session("a", {}, { expires_at: new Date(NOW.getTime() - ms).toISOString() })
    expect(sessionReason(expiring(TWO_HOURS - 1), NOW, 1440)).toBe("pending")
    expect(sessionReason(expiring(TWO_HOURS * 10), NOW, 1440)).toBe("pending")
  })

  it("asks about an open row only once its own next-ask time has come", () => {
    expect(sessionReason(session("a", {}, { next_ask_at: minutesAgo(-1) }), NOW, 1440)).toBeNull()
    expect(sessionReason(session("a", {}, { next_ask_at: minutesAgo(0) }), NOW, 1440)).toBe("pending")
    expect(attemptIsDue(attempt("t", { next_ask_at: minutesAgo(-1) }), NOW)).toBe(false)
  })

  it("skips sessions older than the look-back, to the minute", () => {
    expect(sessionReason(session("a", { created_at: minutesAgo(60) }), NOW, 60)).toBe("pending")
    expect(sessionReason(session("a", { created_at: minutesAgo(61) }), NOW, 60)).toBeNull()
  })

  it("skips a pending session PayLater already called failed, and asks about one its ledger row says is open", () => {
    expect(sessionReason(session("a", {}, { state: "declined" }), NOW, 1440)).toBeNull()
    expect(sessionReason(session("a"), NOW, 1440)).toBe("pending")
  })

  it.each(["error", "canceled", "captured", "requires_more"])("skips a %s session", (status) => {
    expect(sessionReason(session("a", { status }), NOW, 1440)).toBeNull()
  })

  it("asks again about an authorized cart session that has no order, once the completion had its minute", () => {
    const paid = (agoMs: number) => session("a", { status: "authorized", authorized_at: new Date(NOW.getTime() - agoMs).toISOString() })
    expect(sessionReason(paid(STUCK_AFTER_MS), NOW, 1440)).toBe("paid_without_order")
    expect(sessionReason(paid(STUCK_AFTER_MS - 1), NOW, 1440)).toBeNull()
  })

  it("leaves authorized sessions alone when the order exists and holds their paid attempt, or when they belong to an order (point of sale)", () => {
    const authorized_at = minutesAgo(10)
    const held = { state: "paid" as const, order_id: "order_1" }
    expect(sessionReason(session("a", { status: "authorized", authorized_at, order_id: "order_1" }, held), NOW, 1440)).toBeNull()
    expect(sessionReason(session("a", { status: "authorized", authorized_at, cart_id: null, order_id: "order_1" }, held), NOW, 1440)).toBeNull()
  })

  it.each(["open", "starting"] as const)(
    "asks about an ordered session's current attempt while it is %s (a retried create, '-2', next to the first attempt its order holds), at its own next-ask time",
    (state) => {
      const retried = (row: Partial<Row>, over: Partial<SessionCandidate> = {}) =>
        session("a", { status: "authorized", authorized_at: minutesAgo(10), order_id: "order_1", ...over }, { paylater_order_id: "a-2", state, ...row })
      expect(sessionReason(retried({}), NOW, 1440)).toBe("pending")
      expect(sessionReason(retried({ next_ask_at: minutesAgo(-1) }), NOW, 1440)).toBeNull()
      expect(sessionReason(retried({ next_ask_at: minutesAgo(0) }), NOW, 1440)).toBe("pending")
      // PayLater's end of it (or its payment, then the owner decision's rule) stops the asking.
      for (const ended of ["declined", "expired", "never_started"] as const) {
        expect(sessionReason(retried({ state: ended }), NOW, 1440)).toBeNull()
      }
      expect(ids(select([retried({})]))).toEqual(["a"])
      // A point-of-sale session alike: a request replaced while the one before it was approved and recorded.
      expect(sessionReason(retried({}, { cart_id: null }), NOW, 1440)).toBe("pending")
      expect(sessionReason(retried({ state: "declined" }, { cart_id: null }), NOW, 1440)).toBeNull()
    }
  )

  it("asks about a paid cart's order whose payment nobody recorded, once the owner decision's bound has passed", () => {
    const placed = (agoMs: number, over: Partial<SessionCandidate> = {}, row: Partial<Row> = {}) =>
      session("a", { status: "authorized", authorized_at: new Date(NOW.getTime() - agoMs).toISOString(), order_id: "order_1", ...over }, { state: "paid", order_id: null, ...row })
    expect(sessionReason(placed(OWNER_SETTLES_WITHIN_MS), NOW, 1440)).toBe("owner_unrecorded")
    expect(sessionReason(placed(OWNER_SETTLES_WITHIN_MS - 1), NOW, 1440)).toBeNull()
    // Recorded already, listed already (an extra payment), or a point-of-sale order: nothing to decide.
    expect(sessionReason(placed(OWNER_SETTLES_WITHIN_MS, {}, { order_id: "order_1" }), NOW, 1440)).toBeNull()
    expect(sessionReason(placed(OWNER_SETTLES_WITHIN_MS, { listed: true }), NOW, 1440)).toBeNull()
    expect(sessionReason(placed(OWNER_SETTLES_WITHIN_MS, { cart_id: null }), NOW, 1440)).toBeNull()
    // Urgent: ahead of a pending session that is due.
    const { batch } = selectBatch({ sessions: [session("p"), placed(OWNER_SETTLES_WITHIN_MS)], attempts: [], now: NOW, lookbackMinutes: 1440, batchSize: 1 })
    expect(batch.map((c) => (c as SessionCandidate).session_id)).toEqual(["a"])
  })

  it("asks about every open detached attempt, however old, never about ended or paid ones", () => {
    expect(attemptIsDue(attempt("t"), NOW)).toBe(true)
    expect(attemptIsDue(attempt("t", { state: "starting", created_at: minutesAgo(100_000) }), NOW)).toBe(true)
    for (const state of ["paid", "declined", "expired", "never_started"] as const) {
      expect(attemptIsDue(attempt("t", { state }), NOW)).toBe(false)
    }
  })

  it("a pending session whose ledger row PayLater called paid is paid-without-order (Medusa never recorded the payment)", () => {
    const stuck = session("stuck", {}, { state: "paid", expires_at: minutesAgo(300), last_status_at: minutesAgo(200) })
    expect(sessionReason(stuck, NOW, 1440)).toBe("paid_without_order")
    // Past its expiry and its margin it is still asked about: PayLater has the money.
    expect(ids(select([session("a"), stuck]))).toEqual(["stuck", "a"])
  })

  it("a paid detached attempt handed over as not yet listed goes first; declined and expired ones are never asked", () => {
    const listed = select([session("a")], [attempt("open"), attempt("paid", { state: "paid", last_status_at: minutesAgo(1) })])
    // Then the rest by when they were last checked (never: by creation; the open attempt is older).
    expect(ids(listed)).toEqual(["t:paid", "t:open", "a"])
    expect(ids(select([], [attempt("d", { state: "declined" }), attempt("e", { state: "expired" })]))).toEqual([])
  })

  it("has no cap per cart: 25 restarts give 25 candidates", () => {
    const many = Array.from({ length: 25 }, (_, i) => attempt(`t${i}`))
    expect(select([], many, 100).batch).toHaveLength(25)
  })
})

describe("batching", () => {
  it("puts paid-without-order first, then open rows oldest due first", () => {
    const r = select([
      session("due-just-now", {}, { next_ask_at: minutesAgo(1) }),
      session("never-asked-old", { created_at: minutesAgo(50) }),
      session("due-long-ago", {}, { next_ask_at: minutesAgo(20) }),
      session("not-due-yet", {}, { next_ask_at: minutesAgo(-5) }),
      session("stuck", { status: "authorized", authorized_at: minutesAgo(5), created_at: minutesAgo(6) }),
    ])
    expect(ids(r)).toEqual(["stuck", "never-asked-old", "due-long-ago", "due-just-now"])
  })

  it("takes at most the batch size and reports the rest as deferred", () => {
    const sessions = Array.from({ length: 7 }, (_, i) => session(`s${i}`, { created_at: minutesAgo(60 - i) }))
    const r = select(sessions, [], 3)
    expect(ids(r)).toEqual(["s0", "s1", "s2"])
    expect(r).toMatchObject({ eligible: 7, deferred: 4 })
  })

  it("works through a long queue in turns: what was just asked waits for its next-ask time", () => {
    const sessions = Array.from({ length: 4 }, (_, i) => session(`s${i}`, { created_at: minutesAgo(60 - i) }))
    const first = select(sessions, [], 2)
    expect(ids(first)).toEqual(["s0", "s1"])
    // The run wrote PayLater's answer and each row's next-ask time (backoff) onto the attempts it asked.
    for (const s of sessions.slice(0, 2)) s.attempt!.next_ask_at = nextAskAt(1, NOW).toISOString()
    expect(ids(select(sessions, [], 2))).toEqual(["s2", "s3"])
  })

  it("mixes detached attempts into the same queue, by when each is due", () => {
    const r = select(
      [session("live", {}, { next_ask_at: minutesAgo(10) })],
      [attempt("fresh", { next_ask_at: minutesAgo(1) }), attempt("old", { created_at: minutesAgo(20) })]
    )
    expect(ids(r)).toEqual(["t:old", "live", "t:fresh"])
  })

  it("is stable for equal times and never counts ineligible candidates", () => {
    const r = select([session("b"), session("a"), session("x", { status: "error" })], [attempt("z", { state: "declined" })])
    expect(ids(r)).toEqual(["a", "b"])
    expect(r).toMatchObject({ eligible: 2, deferred: 0 })
  })

  it("selects nothing with a batch size of 0 and reports everything deferred", () => {
    expect(select([session("a")], [], 0)).toMatchObject({ batch: [], eligible: 1, deferred: 1 })
  })
})

describe("runPool", () => {
  it("never runs more than `concurrency` at once and keeps every result", async () => {
    let running = 0
    let peak = 0
    const pool = await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++
      peak = Math.max(peak, running)
      await new Promise((r) => setImmediate(r))
      running--
      return n * 10
    })
    expect(peak).toBe(3)
    expect(pool.results.map((r) => r.result).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50, 60, 70])
    expect(pool.notStarted).toEqual([])
  })

  it("stops starting new work when told to, and says what was left", async () => {
    const started: number[] = []
    const pool = await runPool(
      [1, 2, 3, 4, 5],
      1,
      async (n) => {
        started.push(n)
        return "unavailable" as Outcome
      },
      (done) => payLaterLooksDown(done)
    )
    expect(started).toEqual([1, 2, 3])
    expect(pool.notStarted).toEqual([4, 5])
  })

  it("handles an empty batch and a nonsense concurrency", async () => {
    expect(await runPool([], 4, async () => 1)).toEqual({ results: [], notStarted: [] })
    expect((await runPool([1, 2], 0, async (n) => n)).results).toHaveLength(2)
  })
})

describe("payLaterLooksDown", () => {
  it("needs the last three outcomes to be unavailable", () => {
    expect(payLaterLooksDown(["unavailable", "unavailable"])).toBe(false)
    expect(payLaterLooksDown(["unavailable", "unavailable", "unavailable"])).toBe(true)
    expect(payLaterLooksDown(["unavailable", "unavailable", "pending"])).toBe(false)
    expect(payLaterLooksDown(["pending", "unavailable", "unavailable", "unavailable"])).toBe(true)
  })
})

import { mergeTombstones, saveTombstones, tombstonesOf, TOMBSTONES_KEY, type SessionTombstone } from "../../providers/paylater/tombstones"
import { readReconcileOptions } from "../../providers/paylater/reconcile-options"
import { reconcileSchedule } from "../schedule"
import {
  payLaterLooksDown,
  runPool,
  selectBatch,
  sessionReason,
  STUCK_AFTER_MS,
  tombstoneIsOpen,
  type Outcome,
  type SessionCandidate,
  type TombstoneCandidate,
} from "../select"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString()

function session(id: string, over: Partial<SessionCandidate> = {}, data: Record<string, unknown> = {}): SessionCandidate {
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
    ...over,
    data: { session_id: id, paylater_order_id: id, amount: "360.00", ...data },
  }
}

function tombstone(id: string, over: Partial<SessionTombstone & { checked_at: string }> = {}, owners: Partial<TombstoneCandidate> = {}): TombstoneCandidate {
  return {
    kind: "tombstone",
    payment_collection_id: `pay_col_${id}`,
    cart_id: `cart_${id}`,
    order_id: null,
    ...owners,
    tombstone: {
      session_id: id,
      provider_id: "pp_paylater_paylater",
      paylater_order_id: id,
      amount: "360.00",
      expires_at: null,
      created_at: minutesAgo(40),
      deleted_at: minutesAgo(35),
      ...over,
    },
  }
}

const select = (sessions: SessionCandidate[], tombstones: TombstoneCandidate[] = [], batchSize = 10, lookbackMinutes = 1440) =>
  selectBatch({ sessions, tombstones, now: NOW, lookbackMinutes, batchSize })

const ids = (r: ReturnType<typeof select>) => r.batch.map((c) => (c.kind === "session" ? c.session_id : `t:${c.tombstone.session_id}`))

describe("which sessions a run asks about", () => {
  it("asks about pending sessions that reached PayLater", () => {
    expect(sessionReason(session("a"), NOW, 1440)).toBe("pending")
  })

  it("skips sessions that never reached PayLater (no order id)", () => {
    const s = session("a")
    delete s.data.paylater_order_id
    expect(sessionReason(s, NOW, 1440)).toBeNull()
  })

  it("skips sessions older than the look-back, to the minute", () => {
    expect(sessionReason(session("a", { created_at: minutesAgo(60) }), NOW, 60)).toBe("pending")
    expect(sessionReason(session("a", { created_at: minutesAgo(61) }), NOW, 60)).toBeNull()
  })

  it("skips a pending session PayLater already called failed", () => {
    expect(sessionReason(session("a", {}, { paylater_status_code: 3 }), NOW, 1440)).toBeNull()
  })

  it.each(["error", "canceled", "captured", "requires_more"])("skips a %s session", (status) => {
    expect(sessionReason(session("a", { status }), NOW, 1440)).toBeNull()
  })

  it("asks again about an authorized cart session that has no order, once the completion had its minute", () => {
    const paid = (agoMs: number) => session("a", { status: "authorized", authorized_at: new Date(NOW.getTime() - agoMs).toISOString() })
    expect(sessionReason(paid(STUCK_AFTER_MS), NOW, 1440)).toBe("paid_without_order")
    expect(sessionReason(paid(STUCK_AFTER_MS - 1), NOW, 1440)).toBeNull()
  })

  it("leaves authorized sessions alone when the order exists, or when they belong to an order (point of sale)", () => {
    const authorized_at = minutesAgo(10)
    expect(sessionReason(session("a", { status: "authorized", authorized_at, order_id: "order_1" }), NOW, 1440)).toBeNull()
    expect(sessionReason(session("a", { status: "authorized", authorized_at, cart_id: null, order_id: "order_1" }), NOW, 1440)).toBeNull()
  })

  it("asks about open tombstones inside the look-back only, never about settled ones", () => {
    expect(tombstoneIsOpen(tombstone("t"), NOW, 1440)).toBe(true)
    expect(tombstoneIsOpen(tombstone("t", { outcome: "failed" }), NOW, 1440)).toBe(false)
    expect(tombstoneIsOpen(tombstone("t", { outcome: "paid" }), NOW, 1440)).toBe(false)
    expect(tombstoneIsOpen(tombstone("t", { created_at: minutesAgo(100) }), NOW, 60)).toBe(false)
    // No creation time recorded: the deletion time counts.
    expect(tombstoneIsOpen(tombstone("t", { created_at: null, deleted_at: minutesAgo(50) }), NOW, 60)).toBe(true)
  })
})

describe("batching", () => {
  it("puts paid-without-order first, then the least recently checked", () => {
    const r = select([
      session("checked-recently", {}, { paylater_status_checked_at: minutesAgo(1) }),
      session("never-checked-old", { created_at: minutesAgo(50) }),
      session("checked-long-ago", {}, { paylater_status_checked_at: minutesAgo(20) }),
      session("stuck", { status: "authorized", authorized_at: minutesAgo(5), created_at: minutesAgo(6) }),
    ])
    expect(ids(r)).toEqual(["stuck", "never-checked-old", "checked-long-ago", "checked-recently"])
  })

  it("takes at most the batch size and reports the rest as deferred", () => {
    const sessions = Array.from({ length: 7 }, (_, i) => session(`s${i}`, { created_at: minutesAgo(60 - i) }))
    const r = select(sessions, [], 3)
    expect(ids(r)).toEqual(["s0", "s1", "s2"])
    expect(r).toMatchObject({ eligible: 7, deferred: 4 })
  })

  it("works through a long queue in turns: what was just checked goes to the back", () => {
    const sessions = Array.from({ length: 4 }, (_, i) => session(`s${i}`, { created_at: minutesAgo(60 - i) }))
    const first = select(sessions, [], 2)
    expect(ids(first)).toEqual(["s0", "s1"])
    // The run wrote PayLater's answer (and its time) onto the sessions it checked.
    for (const s of sessions.slice(0, 2)) s.data.paylater_status_checked_at = NOW.toISOString()
    expect(ids(select(sessions, [], 2))).toEqual(["s2", "s3"])
  })

  it("mixes tombstones into the same queue, by when they were last checked", () => {
    const r = select(
      [session("live", {}, { paylater_status_checked_at: minutesAgo(10) })],
      [tombstone("fresh", { checked_at: minutesAgo(1) }), tombstone("old", { deleted_at: minutesAgo(20) })]
    )
    expect(ids(r)).toEqual(["t:old", "live", "t:fresh"])
  })

  it("is stable for equal times and never counts ineligible candidates", () => {
    const r = select([session("b"), session("a"), session("x", { status: "error" })], [tombstone("z", { outcome: "paid" })])
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

describe("tombstones", () => {
  const t = (id: string, over: Partial<SessionTombstone> = {}): SessionTombstone => ({ ...tombstone(id).tombstone, ...over })

  it("merges by session id and never reopens a settled one", () => {
    const merged = mergeTombstones([t("a", { outcome: "paid" }), t("b")], [t("a"), t("b", { outcome: "failed" }), t("c")])
    expect(merged.map((x) => [x.session_id, x.outcome])).toEqual([
      ["a", "paid"],
      ["b", "failed"],
      ["c", undefined],
    ])
  })

  it("caps a collection's list by dropping the oldest settled ones before any open one", () => {
    const stored = [
      ...Array.from({ length: 15 }, (_, i) => t(`settled${i}`, { outcome: "failed" })),
      ...Array.from({ length: 5 }, (_, i) => t(`open${i}`)),
    ]
    const merged = mergeTombstones(stored, [t("new")])
    expect(merged).toHaveLength(20)
    expect(merged.filter((x) => !x.outcome).map((x) => x.session_id)).toEqual(["open0", "open1", "open2", "open3", "open4", "new"])
    expect(merged.some((x) => x.session_id === "settled0")).toBe(false)
  })

  it("reads only well-formed entries", () => {
    expect(tombstonesOf({ [TOMBSTONES_KEY]: [t("a"), null, { session_id: 1 }, "x"] }).map((x) => x.session_id)).toEqual(["a"])
    expect(tombstonesOf(null)).toEqual([])
    expect(tombstonesOf({ [TOMBSTONES_KEY]: "nope" })).toEqual([])
  })

  it("writes again when a concurrent writer replaced the metadata in between", async () => {
    let stored: Record<string, unknown> = { other: 1, [TOMBSTONES_KEY]: [t("a")] }
    let writes = 0
    const ok = await saveTombstones(
      {
        read: async () => stored,
        write: async (m) => {
          writes++
          stored = m
          if (writes === 1) {
            // Someone else wrote their own read of the metadata just after us: ours is lost.
            stored = { other: 1, [TOMBSTONES_KEY]: [t("a"), t("theirs")] }
          }
        },
      },
      [t("ours")]
    )
    expect(ok).toBe(true)
    expect(writes).toBe(2)
    expect(tombstonesOf(stored).map((x) => x.session_id).sort()).toEqual(["a", "ours", "theirs"])
    expect(stored.other).toBe(1)
  })

  it("gives up after a few attempts and says so", async () => {
    const ok = await saveTombstones({ read: async () => ({}), write: async () => undefined }, [t("x")], 2)
    expect(ok).toBe(false)
  })
})

describe("options and schedule", () => {
  it("defaults to a day of look-back, 50 per run, 4 at a time", () => {
    const problems: string[] = []
    expect(readReconcileOptions({}, 60, problems)).toEqual({ lookbackMinutes: 1440, batchSize: 50, concurrency: 4 })
    expect(problems).toEqual([])
  })

  it("stretches the default look-back past the longest link validity", () => {
    expect(readReconcileOptions({}, 1440, []).lookbackMinutes).toBe(1450)
  })

  it("accepts numbers as text (environment variables) and refuses the rest with the field named", () => {
    const problems: string[] = []
    expect(readReconcileOptions({ reconcileBatchSize: "20", reconcileConcurrency: 2 }, 60, problems)).toMatchObject({ batchSize: 20, concurrency: 2 })
    readReconcileOptions({ reconcileBatchSize: 0, reconcileConcurrency: "many", reconcileLookbackMinutes: 30 }, 60, problems)
    expect(problems.join("\n")).toMatch(/reconcileBatchSize must be a whole number between 1 and 1000/)
    expect(problems.join("\n")).toMatch(/reconcileConcurrency must be a whole number between 1 and 16/)
    expect(problems.join("\n")).toMatch(/reconcileLookbackMinutes \(30\) must be at least 70/)
  })

  it("reads the schedule from the environment value", () => {
    expect(reconcileSchedule(undefined)).toEqual({ cron: "*/2 * * * *", disabled: false })
    expect(reconcileSchedule("  * * * * *  ")).toEqual({ cron: "* * * * *", disabled: false })
    expect(reconcileSchedule("0 */5 * * * *")).toEqual({ cron: "0 */5 * * * *", disabled: false })
    expect(reconcileSchedule("off")).toMatchObject({ disabled: true })
    expect(() => reconcileSchedule("every minute")).toThrow(/PAYLATER_RECONCILE_SCHEDULE/)
    expect(() => reconcileSchedule("* * *")).toThrow(/cron expression/)
  })
})

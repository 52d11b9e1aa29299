/**
 * The calls-per-minute budget (call-budget.ts) and, over the real selection (select.ts) and decider
 * (attempt-state.ts) on a fake clock, what the default budget does with a backlog: 10,000 open link
 * rows at once, then 50 new rows a minute, reconciliation every 2 minutes with the default options.
 */
import { nextAskAt, nextState } from "../../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../../modules/paylater-ledger/ledger-port"
import { RECONCILE_DEFAULTS, readReconcileOptions } from "../../providers/paylater/reconcile-options"
import { DEFAULT_RECONCILE_BUDGET_MS } from "../../workflows/paylater-reconcile/workflow"
import { callPacer, callsPerRun, takeCallSlot } from "../call-budget"
import { runPool, selectBatch, type AttemptCandidate } from "../select"

const MINUTE = 60_000

describe("takeCallSlot", () => {
  it("spreads calls evenly: one every 60 s / maxPerMinute, never two closer", () => {
    const pacer = callPacer(600, 1_000)
    expect([1, 2, 3].map(() => takeCallSlot(pacer, 1_000))).toEqual([1_000, 1_100, 1_200])
  })

  it("gives a call asked for after its slot the current time, not a burst to catch up", () => {
    const pacer = callPacer(60, 0)
    expect(takeCallSlot(pacer, 0)).toBe(0)
    expect(takeCallSlot(pacer, 5_000)).toBe(5_000)
    expect(takeCallSlot(pacer, 5_000)).toBe(6_000)
  })

  it("never starts more than maxPerMinute calls in any minute, however many lanes ask", () => {
    const pacer = callPacer(120, 0)
    const starts = Array.from({ length: 1000 }, (_, i) => takeCallSlot(pacer, Math.floor(i / 4) * 10))
    for (const t of starts) expect(starts.filter((s) => s >= t && s < t + MINUTE).length).toBeLessThanOrEqual(120)
  })

  it("treats a nonsensical budget as one call a minute", () => {
    expect(callPacer(0, 0).gapMs).toBe(MINUTE)
    expect(callPacer(Number.NaN, 0).gapMs).toBe(MINUTE)
  })
})

describe("reconcileMaxCallsPerMinute", () => {
  it("defaults to 600 and takes a whole number from 1 to 60000 (text from env too)", () => {
    const problems: string[] = []
    expect(readReconcileOptions({}, 60, problems).maxCallsPerMinute).toBe(600)
    expect(readReconcileOptions({ reconcileMaxCallsPerMinute: "120" }, 60, problems).maxCallsPerMinute).toBe(120)
    expect(problems).toEqual([])
  })

  it.each([0, -5, 1.5, "lots", 60001])("refuses %p at boot", (value) => {
    const problems: string[] = []
    readReconcileOptions({ reconcileMaxCallsPerMinute: value }, 60, problems)
    expect(problems).toEqual([expect.stringContaining("reconcileMaxCallsPerMinute must be a whole number between 1 and 60000")])
  })
})

describe("callsPerRun", () => {
  it("is the run's time bound at the per-minute rate", () => {
    expect(callsPerRun(600, 100_000)).toBe(1000)
    expect(callsPerRun(600, 90_000)).toBe(900)
    expect(callsPerRun(7, 10_000)).toBe(2)
    expect(callsPerRun(600, 0)).toBe(1)
  })
})

describe("runPool paced by the budget", () => {
  it("waits for each slot before starting and stops once the slots pass the deadline", async () => {
    jest.useFakeTimers()
    try {
      const pacer = callPacer(600, Date.now())
      const deadline = Date.now() + 450
      const started: number[] = []
      const pool = runPool(Array.from({ length: 20 }, (_, i) => i), 4, async (n) => {
        started.push(Date.now())
        return n
      }, async () => {
        const slot = takeCallSlot(pacer, Date.now())
        if (slot >= deadline) return true
        if (slot > Date.now()) await new Promise((r) => setTimeout(r, slot - Date.now()))
        return false
      })
      await jest.advanceTimersByTimeAsync(1_000)
      const { results, notStarted } = await pool
      expect(results.map((r) => r.result)).toEqual([0, 1, 2, 3, 4])
      expect(notStarted).toHaveLength(15)
      for (let i = 1; i < started.length; i++) expect(started[i] - started[i - 1]).toBeGreaterThanOrEqual(100)
    } finally {
      jest.useRealTimers()
    }
  })
})

function openRow(id: string, createdMs: number, linkMinutes: number): AttemptRecord {
  return {
    id, paylater_order_id: id, kind: "link", session_id: id, provider_id: "pp_paylater_paylater",
    payment_collection_id: null, cart_id: null, order_id: null, payment_id: null, amount: "360.00",
    currency_code: "qar", expires_at: new Date(createdMs + linkMinutes * MINUTE), state: "open",
    last_status_code: null, last_status_at: null, last_status_signal: null, paylater_ref: null,
    superseded_by: null, session_gone_at: null, start_error: null, next_ask_at: null, asks: 0,
    detail: null, created_at: new Date(createdMs),
  }
}

/** Runs every 2 minutes at the default options; PayLater says 1 until a link expires, then 3. */
function backlog(rows: number, perMinute: number, minutes: number) {
  const start = Date.parse("2026-11-24T08:00:00.000Z")
  const linkMinutes = 60
  const ledger = Array.from({ length: rows }, (_, i) => openRow(`b-${i}`, start, linkMinutes))
  const firstAsk = new Map<string, number>()
  const perRun = callsPerRun(RECONCILE_DEFAULTS.maxCallsPerMinute, DEFAULT_RECONCILE_BUDGET_MS)
  let calls = 0
  for (let minute = 0; minute <= minutes; minute++) {
    const nowMs = start + minute * MINUTE
    for (let i = 0; i < perMinute; i++) ledger.push(openRow(`n-${minute}-${i}`, nowMs, linkMinutes))
    if (minute % 2 !== 0) continue
    const now = new Date(nowMs)
    const attempts: AttemptCandidate[] = ledger.filter((r) => r.state === "open").map((attempt) => ({ kind: "attempt", attempt }))
    const { batch } = selectBatch({ sessions: [], attempts, now, lookbackMinutes: 1440, batchSize: Math.min(RECONCILE_DEFAULTS.batchSize, perRun) })
    batch.forEach((c, i) => {
      const r = c.attempt as AttemptRecord
      // Calls of one run are spread over its time bound.
      const at = new Date(nowMs + i * (MINUTE / RECONCILE_DEFAULTS.maxCallsPerMinute))
      const code = at.getTime() >= new Date(r.expires_at!).getTime() ? 3 : 1
      r.state = nextState({ state: r.state, expires_at: r.expires_at }, { type: "status", code }, at)
      r.asks = (r.asks ?? 0) + 1
      r.next_ask_at = nextAskAt(r.asks, at)
      if (!firstAsk.has(r.paylater_order_id)) firstAsk.set(r.paylater_order_id, at.getTime())
      calls++
    })
  }
  const late = ledger.filter((r) => {
    const asked = firstAsk.get(r.paylater_order_id)
    return new Date(r.created_at!).getTime() <= start + (minutes - linkMinutes) * MINUTE && (asked === undefined || asked > new Date(r.expires_at!).getTime())
  })
  const backlogAskedBy = Math.max(...ledger.filter((r) => r.id.startsWith("b-")).map((r) => firstAsk.get(r.paylater_order_id) ?? Infinity)) - start
  return { late: late.length, backlogAskedByMinutes: backlogAskedBy / MINUTE, callsPerMinute: calls / (minutes + 1) }
}

describe("the default budget with a 10,000-row backlog", () => {
  it("asks every backlog row within its link's window, and stays within the per-minute budget", () => {
    const { late, backlogAskedByMinutes, callsPerMinute } = backlog(10_000, 0, 120)
    expect(late).toBe(0)
    expect(backlogAskedByMinutes).toBeLessThan(60)
    expect(callsPerMinute).toBeLessThanOrEqual(RECONCILE_DEFAULTS.maxCallsPerMinute)
  })

  it("also while 50 new rows a minute arrive: each is asked within its window", () => {
    const { late, backlogAskedByMinutes } = backlog(10_000, 50, 150)
    expect(late).toBe(0)
    expect(backlogAskedByMinutes).toBeLessThan(60)
  })
})

/**
 * Fair scheduling (issue 23 item 4), simulated over the real selection (select.ts) and the real
 * decider (attempt-state.ts) with a fake clock: a stranger floods the store with 50 new payment rows
 * a minute for a whole payment window (the link's hour plus two hours), while one genuine
 * link is paid at PayLater and its webhook is lost. Reconciliation runs every 2 minutes with the
 * default batch size; PayLater answers "pending" for the flood's rows until they expire, then
 * "failed". The genuine payment must be found before its window ends, and no row may leave the
 * ledger without PayLater's word.
 */
import { nextAskAt, nextState, type AttemptState } from "../../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../../modules/paylater-ledger/ledger-port"
import { RECONCILE_DEFAULTS } from "../../providers/paylater/reconcile-options"
import { selectBatch, type AttemptCandidate } from "../select"

const MINUTE = 60_000
const LINK_MINUTES = 60
/** How soon after its link's expiry a payment whose webhook was lost must be found. */
const FOUND_WITHIN_MS = 2 * 3600_000
const WINDOW_MINUTES = LINK_MINUTES + FOUND_WITHIN_MS / MINUTE
const FLOOD_PER_MINUTE = 50
const RUN_EVERY_MINUTES = 2

interface SimRow extends AttemptRecord {
  /** When PayLater took the money (genuine row only). */
  paid_at_ms?: number
}

function row(id: string, createdMs: number): SimRow {
  return {
    id,
    paylater_order_id: id,
    kind: "link",
    session_id: id,
    provider_id: "pp_paylater_paylater",
    payment_collection_id: null,
    cart_id: null,
    order_id: null,
    payment_id: null,
    amount: "360.00",
    currency_code: "qar",
    expires_at: new Date(createdMs + LINK_MINUTES * MINUTE),
    state: "open",
    last_status_code: null,
    last_status_at: null,
    last_status_signal: null,
    paylater_ref: null,
    superseded_by: null,
    session_gone_at: null,
    start_error: null,
    next_ask_at: null,
    asks: 0,
    detail: null,
    created_at: new Date(createdMs),
  }
}

/** PayLater's status operation in the simulation: 2 once paid, 3 once expired, else 1. */
function payLaterSays(r: SimRow, nowMs: number): 1 | 2 | 3 {
  if (r.paid_at_ms !== undefined && nowMs >= r.paid_at_ms) return 2
  return nowMs >= new Date(r.expires_at!).getTime() ? 3 : 1
}

function simulate(genuinePaidAfterMinutes: number, genuineCreatedAtMinute = 0) {
  const start = Date.parse("2026-11-24T08:00:00.000Z")
  const rows: SimRow[] = []
  let genuine: SimRow | null = null
  let foundAtMs: number | null = null
  let closedUnasked = 0
  let asked = 0
  for (let minute = 0; minute <= WINDOW_MINUTES; minute++) {
    const nowMs = start + minute * MINUTE
    if (minute === genuineCreatedAtMinute) {
      genuine = row("genuine", nowMs)
      genuine.paid_at_ms = nowMs + genuinePaidAfterMinutes * MINUTE
      rows.push(genuine)
    }
    for (let i = 0; i < FLOOD_PER_MINUTE; i++) rows.push(row(`flood-${minute}-${i}`, nowMs + i))
    if (minute % RUN_EVERY_MINUTES !== 0) continue
    const now = new Date(nowMs)
    const attempts: AttemptCandidate[] = rows.filter((r) => r.state === "open").map((attempt) => ({ kind: "attempt", attempt }))
    const { batch } = selectBatch({ sessions: [], attempts, now, lookbackMinutes: 1440, batchSize: RECONCILE_DEFAULTS.batchSize })
    for (const c of batch) {
      const r = c.attempt as SimRow
      const before: AttemptState = r.state
      const code = payLaterSays(r, nowMs)
      asked++
      r.state = nextState({ state: r.state, expires_at: r.expires_at }, { type: "status", code }, now)
      r.asks = (r.asks ?? 0) + 1
      r.next_ask_at = nextAskAt(r.asks, now)
      r.last_status_code = code
      r.last_status_at = now
      if (r === genuine && r.state === "paid" && before !== "paid") foundAtMs = nowMs
    }
    // Nothing else may close a row: count any row that left "open" without PayLater saying 2 or 3.
    closedUnasked += rows.filter((r) => r.state !== "open" && r.last_status_code !== 2 && r.last_status_code !== 3).length
  }
  return { genuine: genuine!, foundAtMs, closedUnasked, asked, rows: rows.length }
}

describe("fair scheduling under a flood of new rows", () => {
  it.each([5, 20, 45, 59])(
    "a genuine link paid %i minutes in, its webhook lost, is found before its window ends while 50 new rows a minute arrive",
    (paidAfter) => {
      const { genuine, foundAtMs, closedUnasked, rows } = simulate(paidAfter)
      expect(rows).toBeGreaterThan(FLOOD_PER_MINUTE * WINDOW_MINUTES)
      expect(foundAtMs).not.toBeNull()
      const windowEnd = new Date(genuine.expires_at!).getTime() + FOUND_WITHIN_MS
      expect(foundAtMs!).toBeLessThanOrEqual(windowEnd)
      expect(closedUnasked).toBe(0)
    }
  )

  it("a genuine link created in the middle of the flood is found too, before its window ends", () => {
    const { genuine, foundAtMs } = simulate(30, 20)
    expect(foundAtMs).not.toBeNull()
    expect(foundAtMs!).toBeLessThanOrEqual(new Date(genuine.expires_at!).getTime() + FOUND_WITHIN_MS)
  })
})

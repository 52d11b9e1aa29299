/**
 * Which PayLater payments one reconciliation run asks about, in what order, and how the run is
 * bounded. Pure: no Medusa, no clock of its own, so every rule is unit-tested.
 */
import { askDueAt, askPayLaterNow } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { OWNER_SETTLES_WITHIN_MS } from "../modules/paylater-ledger/whose-money"

/** A payment session row as the loader reads it, with its cart and order. */
export interface SessionCandidate {
  kind: "session"
  session_id: string
  provider_id: string
  status: string
  created_at: string
  authorized_at: string | null
  payment_collection_id: string
  cart_id: string | null
  /** The cart's order (storefront) or the collection's order (point of sale). */
  order_id: string | null
  /** The session's current attempt in the ledger; null when nothing was ever sent to PayLater. */
  attempt: Pick<AttemptRecord, "paylater_order_id" | "state" | "expires_at" | "last_status_at" | "next_ask_at" | "created_at" | "order_id"> | null
  /** Its attempt is on Settings → PayLater already (e.g. an extra payment): nothing left to decide. */
  listed?: boolean
}

/**
 * A ledger row no live session stands for (its session deleted, or superseded by a newer attempt),
 * that PayLater could still take money for: asked about until its expiry plus the margin, however
 * many a cart has.
 */
export interface AttemptCandidate {
  kind: "attempt"
  attempt: AttemptRecord
}

export type Candidate = SessionCandidate | AttemptCandidate

export interface SelectionInput {
  sessions: SessionCandidate[]
  attempts: AttemptCandidate[]
  now: Date
  lookbackMinutes: number
  batchSize: number
}

export interface Selection {
  batch: Candidate[]
  /** Candidates that needed asking. */
  eligible: number
  /** Eligible but left for the next run (over the batch size). */
  deferred: number
}

/**
 * A paid session left without an order gets this long for the completion that authorized it to
 * finish before the job retries it (completion holds the cart lock meanwhile anyway).
 */
export const STUCK_AFTER_MS = 60_000

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN
  return Number.isNaN(t) ? 0 : t
}

/** Why a session is worth asking PayLater about, or null when it is not. */
export function sessionReason(c: SessionCandidate, now: Date, lookbackMinutes: number): "pending" | "paid_without_order" | "owner_unrecorded" | null {
  if (time(c.created_at) < now.getTime() - lookbackMinutes * 60_000) {
    return null
  }
  if (!c.attempt || c.attempt.state === "never_started") {
    // Never reached PayLater (the create was refused): there is nothing to ask about.
    return null
  }
  if (c.status === "pending") {
    if (c.attempt?.state === "paid") {
      // PayLater said paid (the ledger has it) but Medusa never recorded the payment: the settlement
      // that heard it stopped before authorizing. Money taken, no order: the worst state.
      return "paid_without_order"
    }
    // Asked at its own next-ask time until PayLater itself ends it (attempt-state.ts).
    return askPayLaterNow(c.attempt, { signal: "reconciliation" }, now) ? "pending" : null
  }
  if (c.status === "authorized" && c.cart_id && !c.order_id) {
    // PayLater said paid and Medusa recorded the payment, but the cart never became an order.
    return now.getTime() - time(c.authorized_at ?? c.created_at) >= STUCK_AFTER_MS ? "paid_without_order" : null
  }
  if (c.status === "authorized" && c.cart_id && c.order_id && c.attempt?.state === "paid" && !c.attempt.order_id && !c.listed) {
    // The cart is an order and nobody recorded which payment it holds: no signal settled it since,
    // or the completion that placed it died part-way and left the order without its payment's
    // records (whose-money.ts finishes them). Decided once the owner decision's bound has passed.
    return now.getTime() - time(c.authorized_at ?? c.created_at) >= OWNER_SETTLES_WITHIN_MS ? "owner_unrecorded" : null
  }
  if (c.order_id) {
    // The cart (or the point-of-sale collection's order) holds another attempt's payment, and the
    // session's current attempt is still open: a create whose answer was lost, retried as "-2" while
    // the first (paid meanwhile) became the order, or a request replaced while the one before it was
    // approved. The shopper may pay that one too; only PayLater's answer ends it, so it is asked at
    // its own next-ask time like any open row (settlement settles it from its row and lists it if
    // paid: the placed-cart step, or `recorded_paid`'s `settle_current`). The ledger's open rows a
    // session candidate stands for are not loaded again as attempts (candidates.ts), so nothing else
    // would ever ask (fault campaign, seed 970185422). askPayLaterNow asks only about open and
    // starting rows.
    return askPayLaterNow(c.attempt, { signal: "reconciliation" }, now) ? "pending" : null
  }
  return null
}

/** Open (not paid, not ended by PayLater) and due at `now`: asked about (settleDetachedAttempt). */
export function attemptIsDue(c: AttemptCandidate, now: Date): boolean {
  return askPayLaterNow(c.attempt, { signal: "reconciliation" }, now)
}

const iso = (at: Date | string | null | undefined): string | null => (at ? new Date(at).toISOString() : null)

/** What we last learned about it: the oldest knowledge is refreshed first. */
function staleness(c: Candidate): number {
  if (c.kind === "session") {
    return time(iso(c.attempt?.last_status_at)) || time(c.created_at)
  }
  return time(iso(c.attempt.last_status_at)) || time(iso(c.attempt.created_at))
}

function dueOf(c: Candidate): number {
  if (c.kind === "attempt") return askDueAt(c.attempt)
  return askDueAt({ next_ask_at: c.attempt?.next_ask_at ?? null, created_at: c.attempt?.created_at ?? c.created_at })
}

/**
 * Paid-without-order and orders whose payment is not recorded on them first (money taken, no order
 * that shows it: the worst state), then every open row that is
 * due, oldest due first (each row's own next-ask time, attempt-state.ts). A flood of new rows thus
 * waits behind an old row's next question instead of starving it. Ties keep a stable order by id.
 * Pure: `now` is an input, so a scheduler above it (a calls-per-minute cap) can reuse it.
 */
export function selectBatch(input: SelectionInput): Selection {
  const { now, lookbackMinutes, batchSize } = input
  const urgent: Candidate[] = []
  const rest: Candidate[] = []
  for (const s of input.sessions) {
    const reason = sessionReason(s, now, lookbackMinutes)
    if (reason === "paid_without_order" || reason === "owner_unrecorded") urgent.push(s)
    else if (reason === "pending") rest.push(s)
  }
  for (const a of input.attempts) {
    if (attemptIsDue(a, now)) rest.push(a)
    // Paid and on no list yet (candidates.ts): listed by settling it again.
    else if (a.attempt.state === "paid") urgent.push(a)
  }
  const byStaleness = (a: Candidate, b: Candidate) => staleness(a) - staleness(b) || idOf(a).localeCompare(idOf(b))
  // Oldest due first: each row's own next-ask time (backoff), so new rows queue behind an old one.
  const byDue = (a: Candidate, b: Candidate) => dueOf(a) - dueOf(b) || idOf(a).localeCompare(idOf(b))
  urgent.sort(byStaleness)
  rest.sort(byDue)
  const ordered = [...urgent, ...rest]
  const size = Math.max(0, Math.floor(batchSize))
  return { batch: ordered.slice(0, size), eligible: ordered.length, deferred: Math.max(0, ordered.length - size) }
}

export function idOf(c: Candidate): string {
  return c.kind === "session" ? c.session_id : c.attempt.paylater_order_id
}

export type Outcome =
  /** PayLater confirmed the payment and the order exists (or, point of sale, the payment is recorded). */
  | "paid"
  /** PayLater confirmed the payment, but the cart could not become an order (logged as an error). */
  | "paid_without_order"
  | "failed"
  | "expired"
  | "pending"
  /** Not asked: the session was settled by a webhook, return or poll between listing and asking. */
  | "skipped"
  /** PayLater did not answer (timeout, 5xx, garbage): asked again next run. */
  | "unavailable"
  /** The session disappeared between listing and asking. */
  | "gone"
  /** Settling it threw (not PayLater's fault): counted on its row, listed for a person when it keeps failing. */
  | "error"

/** Failures in a row after which a run stops: PayLater is down, hammering it helps nobody. */
export const MAX_CONSECUTIVE_UNAVAILABLE = 3

export interface PoolResult<T, R> {
  results: Array<{ item: T; result: R }>
  /** Items never started because `stop` said so. */
  notStarted: T[]
}

/**
 * Runs `work` over `items` with at most `concurrency` at a time, in order. Before each start,
 * `stop(resultsSoFar)` may end the run (time budget, PayLater down) or wait (the calls-per-minute
 * pacing, call-budget.ts) before answering; items in flight finish.
 * `work` must not throw (it returns its outcome); a throw is reported by the pool as is.
 */
export async function runPool<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
  stop: (done: R[]) => boolean | Promise<boolean> = () => false
): Promise<PoolResult<T, R>> {
  const results: Array<{ item: T; result: R }> = []
  const done: R[] = []
  let next = 0
  let stopped = false
  const lane = async () => {
    while (!stopped && next < items.length) {
      if (await stop(done)) {
        stopped = true
        break
      }
      // Another lane may have taken the last item while this one waited; a start already granted
      // goes ahead even if another lane has since been told to stop (as items in flight finish).
      if (next >= items.length) break
      const item = items[next++]
      const result = await work(item)
      results.push({ item, result })
      done.push(result)
    }
  }
  const lanes = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length))
  await Promise.all(Array.from({ length: lanes }, lane))
  return { results, notStarted: items.slice(next) }
}

/** True once the last `limit` finished outcomes were all "unavailable". */
export function payLaterLooksDown(outcomes: Outcome[], limit = MAX_CONSECUTIVE_UNAVAILABLE): boolean {
  if (outcomes.length < limit) {
    return false
  }
  return outcomes.slice(-limit).every((o) => o === "unavailable")
}

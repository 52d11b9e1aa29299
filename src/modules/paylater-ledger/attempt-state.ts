/**
 * The one decider of a PayLater attempt's state, of whether to ask PayLater now (askPayLaterNow),
 * of whose money it is (holdsOrderMoney), and of everything shown from it: the shopper's return
 * page, the waiting screen, reconciliation and the admin. Pure: facts in, decision out.
 *
 * A row moves only on PayLater's word (its status operation or a verified webhook: `status`
 * events), never on our clock alone. Paid is final: nothing PayLater says later undoes it
 * (a late `pending` or `failed` webhook arrives out of order). Declined/expired are final for what
 * we show, but a later `paid` from PayLater still wins: the money moved, so we must account for it.
 */

export const ATTEMPT_KINDS = ["link", "request_to_pay", "point_of_sale"] as const
export type AttemptKind = (typeof ATTEMPT_KINDS)[number]

export const ATTEMPT_STATES = ["starting", "open", "paid", "declined", "expired", "never_started"] as const
/**
 * starting: written, PayLater not yet answered the create. open: PayLater has it (or may have:
 * a create whose answer was lost), not paid yet. paid: PayLater said status 2. declined: status 3
 * before its expiry. expired: status 3 at/after expiry (or saying so). never_started: PayLater refused the create outright (nothing can be paid).
 */
export type AttemptState = (typeof ATTEMPT_STATES)[number]

/** Who told us: a settlement signal, or `checkout` for the status checks Medusa's own flows make. */
export const SIGNALS = ["return", "webhook", "poll", "admin", "reconciliation", "checkout"] as const
export type AttemptSignal = (typeof SIGNALS)[number]

/** PayLater's status codes: 0 not initiated, 1 pending, 2 success, 3 failed. */
export type StatusCode = 0 | 1 | 2 | 3

export interface AttemptFacts {
  state: AttemptState
  /** ISO instant or Date; null when unknown. */
  expires_at: string | Date | null
}

export type AttemptEvent =
  /** PayLater accepted the create. */
  | { type: "started"; expires_at: string | Date | null }
  /** The create failed: `maybe_landed` when PayLater may have it (timeout, lost answer). */
  | { type: "start_failed"; maybe_landed: boolean }
  /** PayLater's word: the status operation's answer or a verified webhook's status. */
  | { type: "status"; code: StatusCode; message?: string | null }
  /** PayLater was asked and did not answer: nothing changes but the next question's time. */
  | { type: "unanswered" }

/**
 * After its expiry, an attempt is shown as still waiting for this long unless PayLater confirms the
 * end (a payment approved in its last second must not be shown as expired), but no longer: an
 * unreachable PayLater must not leave a shopper looking at a spinner forever.
 */
export const EXPIRY_GRACE_MS = 60_000

/** The states of an attempt that ended without money (PayLater may still report a late payment). */
export const FINAL_UNPAID: ReadonlySet<AttemptState> = new Set(["declined", "expired", "never_started"])

const time = (at: string | Date | null): number => (at === null ? NaN : new Date(at).getTime())

/** True once `now` is at or past the expiry (false when the expiry is unknown). */
export function pastExpiry(facts: Pick<AttemptFacts, "expires_at">, now: Date, marginMs = 0): boolean {
  const at = time(facts.expires_at)
  return !Number.isNaN(at) && now.getTime() >= at + marginMs
}

/** The state after one event. Never moves out of `paid`. */
export function nextState(facts: AttemptFacts, event: AttemptEvent, now: Date): AttemptState {
  const { state } = facts
  if (state === "paid") {
    return "paid"
  }
  switch (event.type) {
    case "started":
      return state === "starting" ? "open" : state
    case "start_failed":
      if (state !== "starting") return state
      return event.maybe_landed ? "open" : "never_started"
    case "status":
      if (event.code === 2) return "paid"
      if (event.code === 3) {
        if (FINAL_UNPAID.has(state)) return state
        const saysExpired = (event.message ?? "").toLowerCase().includes("expire")
        return saysExpired || pastExpiry(facts, now) ? "expired" : "declined"
      }
      // 0/1: PayLater has it and it is not paid; a late pending never reopens a final state.
      return state === "starting" ? "open" : state
    case "unanswered":
      return state
  }
}

/** What the shopper's page, the waiting screen and the admin's order card show. */
export type AttemptView =
  | { status: "waiting"; seconds_left: number; expires_at: string | null }
  /** PayLater confirmed the payment; the order is being placed (or could not be: paid_not_placed). */
  | { status: "processing" }
  | { status: "paid"; order_id: string }
  /**
   * Paid, and the cart's completion failed. `retrying`: the paid session is still the cart's and its
   * completion is tried again (completionStep) until the money goes back, so the order may still be
   * placed; without it (the session gone, the money given back) it never will be with this money.
   */
  | { status: "paid_not_placed"; retrying?: true }
  | { status: "declined" }
  | { status: "expired" }

export interface ViewFacts extends AttemptFacts {
  /** The cart's order, or the point-of-sale order the payment was recorded on. */
  order_id: string | null
  /** The paid cart's completion was tried and failed (paid without an order). */
  completion_failed?: boolean
  /** After such a failure: the paid session is live and a later completion may still place the order. */
  completion_retrying?: boolean
}

export function viewOf(facts: ViewFacts, now: Date): AttemptView {
  switch (facts.state) {
    case "paid":
      if (facts.order_id) return { status: "paid", order_id: facts.order_id }
      if (!facts.completion_failed) return { status: "processing" }
      return facts.completion_retrying ? { status: "paid_not_placed", retrying: true } : { status: "paid_not_placed" }
    case "declined":
    case "never_started":
      return { status: "declined" }
    case "expired":
      return { status: "expired" }
    case "starting":
    case "open": {
      const at = time(facts.expires_at)
      if (Number.isNaN(at)) return { status: "waiting", seconds_left: 0, expires_at: null }
      if (now.getTime() >= at + EXPIRY_GRACE_MS) return { status: "expired" }
      return { status: "waiting", seconds_left: Math.max(0, Math.ceil((at - now.getTime()) / 1000)), expires_at: new Date(at).toISOString() }
    }
  }
}

/** PayLater took the money (whether or not it became an order yet): never a mismatch with PayLater's "paid". */
export function moneyTakenIn(view: AttemptView): boolean {
  return view.status === "paid" || view.status === "processing" || view.status === "paid_not_placed"
}

export type FailureReason = "declined" | "expired" | "abandoned" | "paid_not_placed"

/** Where a shopper coming back from PayLater goes. `hint` is the return URL's outcome: UX only, never money. */
export type ReturnDecision =
  | { kind: "success"; order_id: string }
  | { kind: "failure"; reason: FailureReason }
  | { kind: "pending" }

/** Which of PayLater's return URLs the shopper came back through. */
export type ReturnOutcomeHint = "success" | "fail" | undefined

export function returnDecisionOf(facts: ViewFacts, hint: ReturnOutcomeHint, now: Date): ReturnDecision {
  if (facts.order_id) {
    // Only money PayLater confirmed becomes an order: an order proves payment.
    return { kind: "success", order_id: facts.order_id }
  }
  const view = viewOf({ ...facts, completion_failed: facts.state === "paid" ? true : facts.completion_failed }, now)
  switch (view.status) {
    case "paid":
      return { kind: "success", order_id: view.order_id }
    case "paid_not_placed":
    case "processing":
      return { kind: "failure", reason: "paid_not_placed" }
    case "declined":
    case "expired":
      return { kind: "failure", reason: view.status }
    case "waiting":
      // Back through the failure URL with no decision from PayLater: the shopper left its page.
      return hint === "fail" ? { kind: "failure", reason: "abandoned" } : { kind: "pending" }
  }
}

/** A paid cart whose completion failed is tried again after 30 s, 1 min, 2 min... at most hourly, not on every signal. */
export const COMPLETION_RETRY_BASE_MS = 30_000
export const COMPLETION_RETRY_MAX_MS = 3600_000

export interface CompletionBackoff {
  tries: number
  next_at: Date
  last_error: string
}

export function completionBackoffAfter(previous: CompletionBackoff | null, error: string, now: Date): CompletionBackoff {
  const tries = (previous?.tries ?? 0) + 1
  const wait = Math.min(COMPLETION_RETRY_MAX_MS, COMPLETION_RETRY_BASE_MS * 2 ** (tries - 1))
  return { tries, next_at: new Date(now.getTime() + wait), last_error: error.slice(0, 300) }
}

/** The backoff a row's columns hold (none before its first failed completion). */
export function completionBackoffOf(
  row: { completion_tries?: number | null; completion_next_at?: Date | string | null; completion_error?: string | null } | null | undefined
): CompletionBackoff | null {
  if (!row?.completion_tries || !row.completion_next_at) return null
  return { tries: row.completion_tries, next_at: new Date(row.completion_next_at), last_error: row.completion_error ?? "" }
}

export function completionDue(backoff: CompletionBackoff | null, now: Date): boolean {
  return !backoff || now.getTime() >= backoff.next_at.getTime()
}

/**
 * Whose money it is: a row holds an order's money once completion recorded, from Medusa's payment
 * record, the order and the payment on it (medusa-effects/order-owner.ts, deciding with whose-money.ts). Nothing else writes a row's
 * `order_id`. Such a row is never listed as paid without an order nor refunded automatically,
 * whatever later happens to sessions, carts or other attempts.
 */
export function holdsOrderMoney(row: { state: AttemptState; order_id: string | null; payment_id: string | null } | null | undefined): boolean {
  return !!row && row.state === "paid" && !!row.order_id && !!row.payment_id
}

/**
 * Fair scheduling of the questions reconciliation asks PayLater. Each open row has its own next-ask
 * time: due at its creation, then again after 2 min, 4, 8, 16, 30 and every 30 min after that
 * (answered or not: an unreachable PayLater is asked again, never given up on). Reconciliation
 * takes due rows oldest-due first, so a flood of new rows (free for anyone to create) queues behind
 * an old row instead of starving it. A row leaves only on PayLater's word (paid, or status 3).
 */
export const ASK_BACKOFF_BASE_MS = 2 * 60_000
export const ASK_BACKOFF_MAX_MS = 30 * 60_000

/** When to ask again after the `asks`-th question (1 for the first), asked at `now`. */
export function nextAskAt(asks: number, now: Date): Date {
  const wait = Math.min(ASK_BACKOFF_MAX_MS, ASK_BACKOFF_BASE_MS * 2 ** Math.max(0, asks - 1))
  return new Date(now.getTime() + wait)
}

/** When a row is next due for a question (its creation when never scheduled). */
export function askDueAt(row: { next_ask_at?: Date | string | null; created_at?: Date | string | null }): number {
  const at = row.next_ask_at ?? row.created_at ?? null
  const t = at === null ? NaN : new Date(at).getTime()
  return Number.isNaN(t) ? 0 : t
}

/** A PayLater signal that settles a payment (Medusa's own "checkout" flows only read). */
export type SettlementSignal = Exclude<AttemptSignal, "checkout">

/** What a signal brings: who asks, and a verified notification's status when it is one. The one name for it. */
export interface AskingSignal<S extends AttemptSignal = AttemptSignal> {
  signal: S
  /** A verified notification's status, when the signal is one. */
  reported?: "success" | "pending" | "failed"
}

/**
 * How long after its expiry a public signal (a shopper's return, a waiting screen's poll) may still
 * make PayLater be asked about an open row: a payment approved in the link's last second is found
 * when the shopper comes back late, yet a session id cannot buy status calls forever. Past it, only
 * reconciliation's schedule and an admin ask (and a verified `success` is always confirmed).
 */
export const PUBLIC_ASKING_AFTER_EXPIRY_MS: Record<"return" | "poll", number> = {
  return: 2 * 3600_000,
  poll: EXPIRY_GRACE_MS,
}

/**
 * The one rule for whether a signal asks PayLater about a row now (return, webhook, poll, admin
 * check, reconciliation, detached rows alike):
 * - a notification's `pending` or `failed` is taken at its word: never asked, never moves a row back;
 * - paid is final: nothing to ask (what is left is Medusa's side: recording it, placing the order);
 * - a notification's `success` is always confirmed with PayLater, even for a row PayLater ended
 *   (a later paid wins: the money moved);
 * - an open row (not ended by PayLater's word) is asked, past its expiry too: only PayLater's answer
 *   closes a row (the final status call). Reconciliation asks at the row's own next-ask time (fair
 *   scheduling); an admin at once; the public signals (return, poll) at once until their bound after
 *   the expiry (PUBLIC_ASKING_AFTER_EXPIRY_MS), each also throttled per session by the status slot.
 * A row PayLater ended (declined, expired, never started) is not asked again without a `success`.
 */
export function askPayLaterNow(
  row: { state: AttemptState; expires_at?: Date | string | null; next_ask_at?: Date | string | null; created_at?: Date | string | null },
  ask: AskingSignal,
  now: Date
): boolean {
  if (ask.reported === "pending" || ask.reported === "failed") return false
  if (row.state === "paid") return false
  if (ask.reported === "success") return true
  if (row.state !== "open" && row.state !== "starting") return false
  if (ask.signal === "reconciliation") return askDueAt(row) <= now.getTime()
  if (ask.signal === "return" || ask.signal === "poll") {
    return !pastExpiry({ expires_at: row.expires_at ?? null }, now, PUBLIC_ASKING_AFTER_EXPIRY_MS[ask.signal])
  }
  return true
}

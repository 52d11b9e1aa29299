/**
 * When a payment PayLater took without an order is refunded automatically, and what a failed try
 * leads to. Pure: no Medusa, no clock of its own, so every rule is unit-tested. The plan lives in
 * the attention item's typed columns (planColumns / readPlan: refund_state, refund_tries,
 * refund_next_at, refund_error), with when it is next due (`refund_due_at`, refundDueAt), which
 * the job selects and orders by.
 */
import type { PaidWithoutOrderPolicy } from "../providers/paylater/options"
import { GIVING_BACK_REFUND_STATES, type AttentionRecord, type AutoRefundState, type RefundPlanColumns } from "../modules/paylater-ledger/types"

export type { AutoRefundState }

/** PayLater refuses refunds sooner than this after the payment. */
export const REFUND_WINDOW_MS = 10 * 60_000
/** Our clock and PayLater's may differ a little: wait this much longer. */
export const REFUND_WINDOW_MARGIN_MS = 60_000
/** Tries refused by PayLater (too early, a clear error) before the item is left to a person. */
export const MAX_REFUND_TRIES = 6
const FIRST_BACKOFF_MS = 2 * 60_000
const MAX_BACKOFF_MS = 60 * 60_000

export interface AutoRefund {
  state: AutoRefundState
  tries: number
  /** ISO instant: no try before it ("scheduled"); when the refund was started ("refunding"). */
  next_attempt_at: string | null
  last_error: string | null
}

export function planFor(policy: PaidWithoutOrderPolicy, paidAt: Date): AutoRefund {
  if (policy === "hold") {
    return { state: "held", tries: 0, next_attempt_at: null, last_error: null }
  }
  return {
    state: "scheduled",
    tries: 0,
    next_attempt_at: new Date(paidAt.getTime() + REFUND_WINDOW_MS + REFUND_WINDOW_MARGIN_MS).toISOString(),
    last_error: null,
  }
}

type PlanFields = Pick<AttentionRecord, "refund_state" | "refund_tries" | "refund_next_at" | "refund_error">

/** The plan an item holds, or null when it has none (an item of another kind). */
export function readPlan(item: PlanFields | null | undefined): AutoRefund | null {
  if (!item?.refund_state) return null
  const next = item.refund_next_at ? new Date(item.refund_next_at) : null
  return {
    state: item.refund_state,
    tries: item.refund_tries ?? 0,
    next_attempt_at: next && !Number.isNaN(next.getTime()) ? next.toISOString() : null,
    last_error: item.refund_error ?? null,
  }
}

/** The item's columns for a plan, written together, always: `refund_due_at` is what the job selects by. */
export function planColumns(plan: AutoRefund): RefundPlanColumns {
  return {
    refund_state: plan.state,
    refund_tries: plan.tries,
    refund_next_at: plan.next_attempt_at ? new Date(plan.next_attempt_at) : null,
    refund_error: plan.last_error,
    refund_due_at: refundDueAt(plan),
  }
}

export function isDue(plan: AutoRefund | null, now: Date): boolean {
  if (!plan || plan.state !== "scheduled" || !plan.next_attempt_at) return false
  const at = Date.parse(plan.next_attempt_at)
  return !Number.isNaN(at) && now.getTime() >= at
}

/** A plan under which the money may have gone back (GIVING_BACK_REFUND_STATES): no order may take it. */
export function blocksCompletion(plan: AutoRefund | null): boolean {
  return !!plan && GIVING_BACK_REFUND_STATES.includes(plan.state)
}

/**
 * After a try that did not refund. `unknown`: PayLater may have paid it out, so nothing is tried
 * again (the refund guard lists it for a person). Otherwise PayLater refused it clearly (too early,
 * an error it explained): tried again later, backing off, up to MAX_REFUND_TRIES.
 */
export function afterFailure(plan: AutoRefund, now: Date, error: string, unknown: boolean): AutoRefund {
  const tries = plan.tries + 1
  if (unknown || tries >= MAX_REFUND_TRIES) {
    return { state: unknown ? "outcome_unknown" : "stopped", tries, next_attempt_at: null, last_error: error }
  }
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (tries - 1), MAX_BACKOFF_MS)
  return { state: "scheduled", tries, next_attempt_at: new Date(now.getTime() + backoff).toISOString(), last_error: error }
}

/** A refund started this long ago without its answer written: the process sending it died. */
export const ABANDONED_AFTER_MS = 15 * 60_000

/**
 * The first instant the automatic refund acts on a plan (isDue or isAbandoned turns true), null when
 * it waits for nothing (held, stopped, refunded, unknown). Stored as the item's `refund_due_at`
 * with every plan, so the job reads the due items, oldest due first, and no number of items that
 * wait for nothing can keep a due one off its page.
 */
export function refundDueAt(plan: AutoRefund | null): Date | null {
  if (!plan?.next_attempt_at) return null
  const at = Date.parse(plan.next_attempt_at)
  if (Number.isNaN(at)) return null
  if (plan.state === "scheduled") return new Date(at)
  // isAbandoned: strictly more than ABANDONED_AFTER_MS after the start.
  if (plan.state === "refunding") return new Date(at + ABANDONED_AFTER_MS + 1)
  return null
}

export function startRefund(plan: AutoRefund, now: Date): AutoRefund {
  return { ...plan, state: "refunding", next_attempt_at: now.toISOString() }
}

/**
 * A "refunding" plan whose process stopped before recording PayLater's answer: the refund may have
 * been paid out, so it is handled as an unknown outcome (never re-sent).
 */
export function isAbandoned(plan: AutoRefund | null, now: Date): boolean {
  if (!plan || plan.state !== "refunding" || !plan.next_attempt_at) return false
  const at = Date.parse(plan.next_attempt_at)
  return !Number.isNaN(at) && now.getTime() - at > ABANDONED_AFTER_MS
}

/**
 * The one critical section between settling a session (settle.ts: asking PayLater, authorizing,
 * placing the cart's order, recording its owner) and refunding money of that session's attempts
 * (the automatic refund and the refund from the list, cart-locks.ts): a completion that starts
 * after a refund began sees it and places nothing; a refund that starts after a completion finds
 * the order. Per session, not per cart: the money a refund sends back is one attempt's, and an
 * attempt belongs to one session. Taken before the cart lock on both sides, so they never wait on
 * each other crosswise.
 */
export const sessionMoneyLockKey = (sessionId: string) => `paylater:settle:${sessionId}`


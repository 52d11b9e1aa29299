/** What the activity history stores. Derived facts (link created, captured, refunded) are not kinds. */
export const PAYLATER_EVENT_KINDS = ["shopper_returned", "webhook_verified", "status_checked"] as const
export type PayLaterEventKind = (typeof PAYLATER_EVENT_KINDS)[number]

export interface RecordPayLaterEventInput {
  session_id: string
  payment_collection_id?: string | null
  paylater_order_id?: string | null
  kind: PayLaterEventKind
  status?: string | null
  /** Public-safe facts only: no secrets, no full mobile numbers, no raw bodies. */
  detail?: Record<string, unknown> | null
  occurred_at?: Date
  /**
   * Same key, same event: a repeat bumps `repeat_count` and `last_occurred_at` on the first row
   * instead of adding one. Null: always a new row.
   */
  dedupe_key?: string | null
}

export interface PayLaterEventRecord {
  id: string
  session_id: string
  payment_collection_id: string | null
  paylater_order_id: string | null
  kind: PayLaterEventKind
  status: string | null
  detail: Record<string, unknown> | null
  occurred_at: Date | string
  last_occurred_at: Date | string | null
  repeat_count: number
  dedupe_key: string | null
}

// ---- Payments needing a person ------------------------------------------------------------------

/**
 * What can need a person. `refund_outcome_unknown` is raised by the refund guard; the others are
 * raised by the settlement path (paid at PayLater without an order, store and PayLater disagree).
 * `orphaned` is no longer raised (a deleted session's paid attempt is paid without an order now);
 * it stays so rows listed by earlier versions can still be shown and resolved.
 */
export const ATTENTION_KINDS = ["refund_outcome_unknown", "paid_without_order", "orphaned", "mismatch", "settlement_failing"] as const
export type AttentionKind = (typeof ATTENTION_KINDS)[number]

/**
 * How each kind may be resolved. `refunded`/`not_refunded` for an unknown refund are what the
 * operator found in PayLater's merchant portal; they settle the refund attempt too.
 */
export const ATTENTION_RESOLUTIONS: Readonly<Record<AttentionKind, readonly string[]>> = {
  refund_outcome_unknown: ["refunded", "not_refunded"],
  paid_without_order: ["refunded", "resolved"],
  orphaned: ["refunded", "resolved"],
  mismatch: ["resolved"],
  settlement_failing: ["resolved"],
}

/**
 * The automatic refund's plan for an item (money-plan/refund-plan.ts decides it): where it is, how
 * many tries PayLater refused, when it next acts, the last refusal. Typed columns of the item, so
 * the job, the completion guard and the list read one record, never an item's untyped `detail`.
 */
// scheduled: waits for refund_next_at (the refund window, or the backoff after a refused try).
// refunding: written just before the refund is sent; from here on the cart is never completed.
// held: the merchant's option says a person decides (`paidWithoutOrder: "hold"`), or no registration may send it.
// outcome_unknown: PayLater did not answer a try; it may have paid out, so no more tries (the refund guard lists it).
// stopped: PayLater kept refusing (clearly, nothing paid out), or an order came to hold the money.
export const AUTO_REFUND_STATES = ["scheduled", "refunding", "refunded", "held", "outcome_unknown", "stopped"] as const
export type AutoRefundState = (typeof AUTO_REFUND_STATES)[number]

/**
 * The states in which the automatic refund may have sent the money back (or did): its cart must
 * then never become an order (it would ship for money that went back). Scheduled or held, a
 * retried completion may still place the order.
 */
export const GIVING_BACK_REFUND_STATES: readonly AutoRefundState[] = ["refunding", "refunded", "outcome_unknown"]

/** The list item of one attempt's money (Settings → PayLater), one per PayLater order id. */
export const dedupeKeyOf = (paylaterOrderId: string) => `paid_without_order:${paylaterOrderId}`

export interface RefundPlanColumns {
  /** Null: the item has no automatic refund (it is not about money PayLater took without an order). */
  refund_state: AutoRefundState | null
  refund_tries: number
  /** No try before it ("scheduled"); when the refund was started ("refunding"). */
  refund_next_at: Date | null
  refund_error: string | null
  /** When the automatic refund next acts on it (refund-plan.ts `refundDueAt`); null: never by itself. */
  refund_due_at: Date | null
}

export interface FlagForAttentionInput extends Partial<RefundPlanColumns> {
  /** One sentence for the operator, e.g. "Refund of 120.00 QAR: PayLater did not answer". */
  summary: string
  /** Same key, same row: flagging twice returns the first (open or resolved) row unchanged. */
  dedupe_key?: string | null
  /** Two-decimal QAR text. */
  amount?: string | null
  paylater_order_id?: string | null
  session_id?: string | null
  payment_id?: string | null
  payment_collection_id?: string | null
  order_id?: string | null
  cart_id?: string | null
  /** Public-safe facts only. */
  detail?: Record<string, unknown> | null
}

export interface ResolveAttentionInput {
  /** One of ATTENTION_RESOLUTIONS[kind]. */
  resolution: string
  note?: string | null
  /** The admin user who resolved it. */
  actor_id?: string | null
}

export interface AttentionRecord {
  id: string
  kind: AttentionKind
  status: "open" | "resolved"
  dedupe_key: string | null
  summary: string
  amount: string | null
  paylater_order_id: string | null
  session_id: string | null
  payment_id: string | null
  payment_collection_id: string | null
  order_id: string | null
  cart_id: string | null
  detail: Record<string, unknown> | null
  resolution: string | null
  resolution_note: string | null
  resolved_by: string | null
  resolved_at: Date | string | null
  /** When the merchant was told (src/notifications); null: not yet. Absent on rows read before the column existed. */
  notified_at?: Date | string | null
  /** The automatic refund's plan (RefundPlanColumns); absent on rows read before the columns existed. */
  refund_state?: AutoRefundState | null
  refund_tries?: number
  refund_next_at?: Date | string | null
  refund_error?: string | null
  /** When the automatic refund next acts on it (refund-plan.ts `refundDueAt`). */
  refund_due_at?: Date | string | null
  /** When the list last decided it again (current-items.ts). */
  decided_at?: Date | string | null
  created_at: Date | string
}

// ---- Refund attempts -----------------------------------------------------------------------------

export const REFUND_ATTEMPT_STATUSES = ["pending", "succeeded", "failed", "unknown", "refunded", "not_refunded"] as const
export type RefundAttemptStatus = (typeof REFUND_ATTEMPT_STATUSES)[number]

export interface BeginRefundInput {
  paylater_order_id: string
  /** Two-decimal QAR text, > 0. */
  amount: string
  /** What PayLater was paid for this order: refunds never add up to more. */
  captured_amount: string
  session_id?: string | null
  payment_id?: string | null
  payment_collection_id?: string | null
  medusa_refund_id?: string | null
  /** A pending attempt older than this is taken as unknown (its process died mid-call). */
  stale_after_ms: number
  /**
   * Set only by the plugin when it records, on the Medusa order, a refund an operator confirmed
   * PayLater paid: nothing is sent, the attempt is marked booked.
   */
  booking_attempt_id?: string | null
}

export interface BeginRefundResult {
  attempt_id: string
  /** "send": call PayLater; "book": only record an already confirmed refund in Medusa. */
  mode: "send" | "book"
  /** Refunded before this one (succeeded or confirmed), two-decimal text. */
  refunded_before: string
  /** The whole payment at once (PayLater's full refund has no amount). */
  full: boolean
}

export interface SettleRefundInput {
  outcome: "succeeded" | "failed" | "unknown"
  error_code?: string | null
  error_message?: string | null
}

// ---- Webhook tallies -----------------------------------------------------------------------------

export interface WebhookTallyInput {
  /** Start of the minute the answers were given in. */
  minute: Date
  accepted: number
  refused: number
  failed: number
  last_refusal_reason?: string | null
  last_refusal_at?: Date | null
}

export interface WebhookSummary {
  accepted: number
  refused: number
  failed: number
  last_refusal_reason: string | null
  last_refusal_at: string | null
}

/** One shopper look-up the store route refused (before any payment session): what is counted, never who. */
export interface LookupRefusalInput {
  /** Start of the UTC hour it was refused in. */
  hour: Date
  kind: "link" | "request_to_pay"
  /** The refusal's `code` as the storefront got it (paylater_not_eligible, paylater_lookup_unavailable). */
  code: string
}

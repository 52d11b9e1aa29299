/** What the activity module stores. Derived facts (link created, captured, refunded) are not kinds. */
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

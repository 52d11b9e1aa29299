/**
 * PayLater's refund rules (its refund operation refuses anything else): not sooner than 10 minutes
 * after the payment, not later than 29 days after it. Computed from the earliest moment this store
 * knew the payment was made, which is never before PayLater's own payment time: the opening shown
 * may be a little late, never early; the closing may be late by the same delay (usually seconds).
 */

export const REFUND_OPENS_AFTER_MS = 10 * 60_000
export const REFUND_CLOSES_AFTER_MS = 29 * 24 * 60 * 60_000

export type RefundWindowState = "not_yet_open" | "open" | "closed" | "fully_refunded"

export interface RefundWindow {
  state: RefundWindowState
  /** ISO instants. */
  paid_at: string
  opens_at: string
  closes_at: string
  /** Two-decimal text still refundable (captured minus refunded). */
  refundable_amount: string
}

export interface RefundWindowInput {
  paid_at: Date | null
  /** Cents-free decimal text is fine; compared as numbers of dirhams. */
  captured_amount: string
  refunded_amount: string
  now: Date
}

function dirhams(amount: string): number {
  // Two-decimal text → integer dirhams, so no binary fraction enters the comparison.
  const [whole, fraction = ""] = amount.split(".")
  const sign = whole.startsWith("-") ? -1 : 1
  return sign * (Math.abs(Number(whole)) * 100 + Number((fraction + "00").slice(0, 2)))
}

function asText(value: number): string {
  const sign = value < 0 ? "-" : ""
  const abs = Math.abs(value)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`
}

/** Null when nothing was paid. */
export function computeRefundWindow(input: RefundWindowInput): RefundWindow | null {
  if (!input.paid_at || Number.isNaN(input.paid_at.getTime())) {
    return null
  }
  const paid = input.paid_at.getTime()
  const opens = paid + REFUND_OPENS_AFTER_MS
  const closes = paid + REFUND_CLOSES_AFTER_MS
  const refundable = Math.max(0, dirhams(input.captured_amount) - dirhams(input.refunded_amount))
  const now = input.now.getTime()
  const state: RefundWindowState =
    refundable === 0 ? "fully_refunded" : now < opens ? "not_yet_open" : now > closes ? "closed" : "open"
  return {
    state,
    paid_at: new Date(paid).toISOString(),
    opens_at: new Date(opens).toISOString(),
    closes_at: new Date(closes).toISOString(),
    refundable_amount: asText(refundable),
  }
}

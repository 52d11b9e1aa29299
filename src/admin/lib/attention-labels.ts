/**
 * The words Settings → PayLater uses for a payment needing a person and for how it was resolved; the
 * order card uses the same ones for the same payment (one thing, one place).
 */

export const ATTENTION_KIND_LABEL: Record<string, string> = {
  refund_outcome_unknown: "Refund outcome unknown",
  paid_without_order: "Paid, no order",
  orphaned: "Paid after the cart changed",
  mismatch: "Store and PayLater disagree",
  settlement_failing: "Settlement keeps failing",
}

export const RESOLUTION_LABEL: Record<string, string> = {
  refunded: "PayLater refunded it",
  not_refunded: "PayLater did not refund it",
  resolved: "Mark resolved",
}

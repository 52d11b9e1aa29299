/**
 * The words Settings → PayLater uses for a payment needing a person and for how it was resolved; the
 * order card uses the same ones for the same payment (one thing, one place). A payment without an
 * order is named by the words every screen uses for it (src/words/payment-status.ts).
 */
import { PAID_WITHOUT_ORDER_LABEL } from "../../words/payment-status"

export const ATTENTION_KIND_LABEL: Record<string, string> = {
  refund_outcome_unknown: "Refund outcome unknown",
  paid_without_order: PAID_WITHOUT_ORDER_LABEL,
  orphaned: "Paid after the cart changed",
  mismatch: "Store and PayLater disagree",
  settlement_failing: "Settlement keeps failing",
}

export const RESOLUTION_LABEL: Record<string, string> = {
  refunded: "PayLater refunded it",
  not_refunded: "PayLater did not refund it",
  resolved: "Mark resolved",
}

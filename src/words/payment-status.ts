/**
 * The words for what became of a PayLater payment, in one place for every screen that names it: the
 * PayLater page's funnel and payments list, its CSV (which carries the code, `status`, whose words
 * are these), Settings → PayLater's list and the order card. One fact, one word: a payment PayLater
 * took that no order holds is "Paid, no order" everywhere, from the moment any screen knows it.
 * Plain data, no imports: the admin bundle and the server both read it.
 */

/** PayLater took the money and no order holds it (refunded or held per `paidWithoutOrder`). */
export const PAID_WITHOUT_ORDER_LABEL = "Paid, no order"

/** The finance report's payment statuses (funnel/definitions.ts PAYMENT_STATUSES), in words. */
export const PAYMENT_STATUS_LABEL = {
  placed: "Placed as an order",
  placing: "Being placed",
  paid_without_order: PAID_WITHOUT_ORDER_LABEL,
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
} as const

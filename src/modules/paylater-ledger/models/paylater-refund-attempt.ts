import { model } from "@medusajs/framework/utils"

/**
 * One refund sent (or about to be sent) to PayLater, written BEFORE the call. PayLater publishes no
 * refund status and no refund idempotency, and Medusa deletes its own refund record when the provider
 * throws, so this row is the only memory that a refund may have been paid out.
 *
 * status: pending (call in flight) → succeeded | failed (PayLater refused; nothing paid) | unknown
 * (timeout or unreadable answer) → refunded | not_refunded (an operator checked with PayLater).
 * While a payment has a pending or unknown attempt, no other refund of it is sent (the partial unique
 * index makes that hold across instances). `booked_at`: a refund confirmed by an operator has been
 * recorded on the Medusa order as well.
 */
export const PayLaterRefundAttempt = model
  .define("paylater_refund_attempt", {
    id: model.id({ prefix: "plref" }).primaryKey(),
    paylater_order_id: model.text(),
    session_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    payment_collection_id: model.text().nullable(),
    medusa_refund_id: model.text().nullable(),
    amount: model.bigNumber(),
    full: model.boolean().default(false),
    status: model.text(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    sent_at: model.dateTime(),
    settled_at: model.dateTime().nullable(),
    booked_at: model.dateTime().nullable(),
    /**
     * An operator confirmed this refund and the plugin is recording it on the Medusa order: the next
     * refund call for the same amount only books it (sends nothing). Set just before that call.
     */
    booking_requested_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["paylater_order_id"] },
    // Refunds sent in a period (src/funnel/report-sql.ts).
    { name: "IDX_paylater_refund_attempt_sent_at", on: ["sent_at"] },
    {
      name: "IDX_paylater_refund_attempt_open_unique",
      on: ["paylater_order_id"],
      unique: true,
      where: "status IN ('pending', 'unknown') AND deleted_at IS NULL",
    },
  ])

import { model } from "@medusajs/framework/utils"

/**
 * One PayLater order (a payment link, a Request to Pay, a point-of-sale request, or an attempt a
 * later one superseded), written BEFORE PayLater is asked to create it: the store's own record of
 * which PayLater orders exist, whatever happens to Medusa's payment sessions (which the storefront
 * writes into, Medusa copies and deletes without telling the provider).
 *
 * Changed only on PayLater's word (status operation, verified webhook) or our expiry rule
 * (attempt-state.ts decides `state`), never from session data, and never deleted: a row
 * is how reconciliation finds money PayLater took for a session Medusa no longer has.
 */
export const PayLaterAttempt = model
  .define("paylater_attempt", {
    id: model.id({ prefix: "platm" }).primaryKey(),
    /** The id PayLater knows it by: the Medusa session id, suffixed "-N" on later attempts. */
    paylater_order_id: model.text(),
    /** link | request_to_pay | point_of_sale */
    kind: model.text(),
    session_id: model.text(),
    /** The provider that started it (pp_paylater_<registration id>): written ahead, asked and refunded there only. */
    provider_id: model.text().nullable(),
    /** Public-safe: the PayLater account (outlet, client id, API base) the create was sent to; null on older rows. */
    paylater_account: model.text().nullable(),
    payment_collection_id: model.text().nullable(),
    cart_id: model.text().nullable(),
    order_id: model.text().nullable(),
    /** The Medusa payment PayLater's "paid" created, once settlement recorded it (refunds name it). */
    payment_id: model.text().nullable(),
    amount: model.bigNumber(),
    currency_code: model.text(),
    expires_at: model.dateTime().nullable(),
    /** attempt-state.ts: starting | open | paid | declined | expired | never_started */
    state: model.text(),
    /** PayLater's last status code (0..3) and when and from which signal we learnt it. */
    last_status_code: model.number().nullable(),
    last_status_at: model.dateTime().nullable(),
    last_status_signal: model.text().nullable(),
    /**
     * When PayLater first said paid: written once, by the update that turns the row paid, never
     * changed after (last_status_at moves each time PayLater is asked again). The finance report's
     * "paid at" and the funnel's time to pay.
     */
    paid_at: model.dateTime().nullable(),
    /** PayLater's own reference (payLaterOrderId), once it gave one. */
    paylater_ref: model.text().nullable(),
    /** The PayLater order id of the attempt that replaced this one (the old one stays payable). */
    superseded_by: model.text().nullable(),
    /** Medusa deleted the session (deletePayment, or a start that threw). */
    session_gone_at: model.dateTime().nullable(),
    /** Why the create call's outcome is unknown or refused, when it was (error code only). */
    start_error: model.text().nullable(),
    /**
     * When reconciliation asks PayLater about this open attempt next (attempt-state.ts `nextAskAt`:
     * backoff per row, so new rows never starve old ones); null: due since its creation.
     */
    next_ask_at: model.dateTime().nullable(),
    /** How many times PayLater was asked about it (answered or not): the backoff's step. */
    asks: model.number().default(0),
    /**
     * A paid cart that could not become an order is completed again after a backoff
     * (attempt-state.ts `completionBackoffAfter`): how many tries failed, when the next may run, why.
     */
    completion_tries: model.number().default(0),
    completion_next_at: model.dateTime().nullable(),
    completion_error: model.text().nullable(),
    /** Settling it threw (not a busy lock): how often, since when, the last error (listed after a few). */
    settlement_failures: model.number().default(0),
    settlement_failing_since: model.dateTime().nullable(),
    settlement_error: model.text().nullable(),
    /** Public-safe extras: masked mobile, PayLater's raw expiry text. */
    detail: model.json().nullable(),
  })
  .indexes([
    { on: ["paylater_order_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["session_id"] },
    { on: ["state"] },
    { on: ["payment_collection_id"] },
    { on: ["next_ask_at"] },
    // The funnel's cohort (attempts created in a period) and the finance report's payments (paid in
    // a period, paged in that order): src/funnel/report-sql.ts. Both also carry (INCLUDE) the
    // columns their queries read, which a model cannot declare: Migration20261126220000.
    { name: "IDX_paylater_attempt_cohort", on: ["created_at"], where: "deleted_at IS NULL" },
    { name: "IDX_paylater_attempt_paid_at", on: ["paid_at", "id"], where: "state = 'paid' AND deleted_at IS NULL" },
  ])

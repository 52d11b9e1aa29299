import { model } from "@medusajs/framework/utils"
import { AUTO_REFUND_STATES } from "../types"

/**
 * A PayLater payment that needs a person: the list on Settings → PayLater. Generic on purpose: `kind`
 * says what happened (types.ts ATTENTION_KINDS) and the links (PayLater order, session, payment,
 * collection, order, cart) say where; any that are known are filled. `dedupe_key` makes flagging
 * idempotent (flag the same thing twice, get the same row). `detail` is public-safe only.
 */
export const PayLaterAttention = model
  .define("paylater_attention", {
    id: model.id({ prefix: "platt" }).primaryKey(),
    kind: model.text(),
    status: model.text().default("open"),
    dedupe_key: model.text().nullable(),
    summary: model.text(),
    amount: model.text().nullable(),
    paylater_order_id: model.text().nullable(),
    session_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    payment_collection_id: model.text().nullable(),
    order_id: model.text().nullable(),
    cart_id: model.text().nullable(),
    detail: model.json().nullable(),
    resolution: model.text().nullable(),
    resolution_note: model.text().nullable(),
    resolved_by: model.text().nullable(),
    resolved_at: model.dateTime().nullable(),
    /** When the merchant was told through Medusa's Notification Module (src/notifications); null: not yet. */
    notified_at: model.dateTime().nullable(),
    /**
     * The automatic refund's plan (money-plan/refund-plan.ts, types.ts RefundPlanColumns): null
     * state on items that have none. Columns, not `detail`: the completion guard and the job read it.
     */
    refund_state: model.enum([...AUTO_REFUND_STATES]).nullable(),
    refund_tries: model.number().default(0),
    refund_next_at: model.dateTime().nullable(),
    refund_error: model.text().nullable(),
    /**
     * When the automatic refund next has work on this item (refund-plan.ts `refundDueAt`): its next
     * try, or when a started refund counts as abandoned. Null when it waits for nothing (held,
     * stopped, refunded, outcome unknown, no plan). The job selects by it, due first.
     */
    refund_due_at: model.dateTime().nullable(),
    /** When the list last decided this open item again (current-items.ts): least recent first. */
    decided_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["status"] },
    { on: ["paylater_order_id"] },
    { on: ["dedupe_key"], unique: true, where: "dedupe_key IS NOT NULL AND deleted_at IS NULL" },
    // The notification sweep's read: open items nobody was told about yet.
    { name: "IDX_paylater_attention_unnotified", on: ["created_at"], where: "notified_at IS NULL AND status = 'open' AND deleted_at IS NULL" },
    // The automatic refund's page (auto-refund.ts) and the re-decision's (current-items.ts): open
    // items ordered by when they are due, so older items that wait for nothing never fill a page.
    { on: ["refund_due_at"], where: "status = 'open' AND refund_due_at IS NOT NULL AND deleted_at IS NULL" },
    { on: ["decided_at"], where: "status = 'open' AND deleted_at IS NULL" },
  ])

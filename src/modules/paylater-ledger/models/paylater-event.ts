import { model } from "@medusajs/framework/utils"

/**
 * One thing PayLater (or the shopper, or staff) did to a payment that Medusa's own records do not
 * keep: the shopper coming back from PayLater, a verified notification, a status check. What Medusa
 * already records (the session's creation, the capture, refunds) is read from Medusa, not copied here.
 *
 * Repeats (a second identical webhook, a reloaded return page) do not add rows: the row with the same
 * `dedupe_key` counts them in `repeat_count` and keeps the last time in `last_occurred_at`.
 * `detail` is public-safe by construction: no secrets, no full mobile numbers, no request bodies.
 */
export const PayLaterEvent = model
  .define("paylater_event", {
    id: model.id({ prefix: "plevt" }).primaryKey(),
    session_id: model.text(),
    payment_collection_id: model.text().nullable(),
    paylater_order_id: model.text().nullable(),
    kind: model.text(),
    status: model.text().nullable(),
    detail: model.json().nullable(),
    occurred_at: model.dateTime(),
    last_occurred_at: model.dateTime().nullable(),
    repeat_count: model.number().default(0),
    dedupe_key: model.text().nullable(),
  })
  .indexes([
    { on: ["session_id"] },
    { on: ["payment_collection_id"] },
    { on: ["dedupe_key"], unique: true, where: "dedupe_key IS NOT NULL AND deleted_at IS NULL" },
  ])

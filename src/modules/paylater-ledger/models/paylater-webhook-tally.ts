import { model } from "@medusajs/framework/utils"

/**
 * Webhook answers per minute (accepted 200, refused 403, failed 5xx) and the last refusal's reason,
 * for "webhooks in the last 24 h" on Settings → PayLater. One row per minute, written in batches off
 * the request path; rows older than two days are dropped.
 */
export const PayLaterWebhookTally = model
  .define("paylater_webhook_tally", {
    id: model.id({ prefix: "plwht" }).primaryKey(),
    minute: model.dateTime(),
    accepted: model.number().default(0),
    refused: model.number().default(0),
    failed: model.number().default(0),
    last_refusal_reason: model.text().nullable(),
    last_refusal_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["minute"], unique: true, where: "deleted_at IS NULL" }])

import { model } from "@medusajs/framework/utils"

/**
 * Shopper look-ups the store route refused before any payment session existed (start-guard.ts), per
 * UTC hour, method and code, for the funnel's "refused at the shopper look-up". Such a refusal makes
 * no attempt, so the attempt ledger never sees it. Counts only: no number, email or cart is kept, as
 * nothing here needs to say who was refused.
 */
export const PayLaterLookupRefusal = model
  .define("paylater_lookup_refusal", {
    id: model.id({ prefix: "pllkr" }).primaryKey(),
    hour: model.dateTime(),
    kind: model.text(),
    code: model.text(),
    count: model.number().default(0),
  })
  .indexes([{ on: ["hour", "kind", "code"], unique: true, where: "deleted_at IS NULL" }])

import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { settleShopperReturn } from "../../../../signal-handlers/shopper-return"

/**
 * GET /paylater/return/:session_id?outcome=success|fail
 *
 * PayLater's success and failure URLs point here (a browser redirect carries no publishable key, so
 * this lives outside /store). The outcome in the query is ours and only picks wording; payment is
 * confirmed with PayLater and the redirect target comes from the merchant's configured URL templates
 * (the provider options of the attempt's registration), never from the request or session data.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const sessionId = req.params.session_id
  const outcome = req.query.outcome === "success" || req.query.outcome === "fail" ? req.query.outcome : undefined
  const location = await settleShopperReturn(req.scope, sessionId, outcome)
  if (!location) {
    res.status(404).json({ message: `No PayLater payment session found for ${sessionId}` })
    return
  }
  res.redirect(303, location)
}

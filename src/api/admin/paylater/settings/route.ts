import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payLaterOverview } from "./overview"

/**
 * GET /admin/paylater/settings: environment, outlet, API base and webhook URL of each PayLater
 * registration, webhooks answered in the last 24 h, the last and next reconciliation run, and how
 * many payments need a person. Nothing secret.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  res.setHeader("Cache-Control", "no-store")
  res.json({ paylater: await payLaterOverview(req.scope) })
}

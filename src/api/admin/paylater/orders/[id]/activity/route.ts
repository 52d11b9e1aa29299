import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readOrderActivity } from "../../../../../../activity/load-activity"

/**
 * GET /admin/paylater/orders/:id/activity: what PayLater did for the order, from the store's records
 * (nothing is asked of PayLater): `{ activity: { order_id, paylater: null | summary, history, attempts } }`,
 * `attempts` being every PayLater attempt of the order, the one holding its money first, each with
 * its outcome (activity/order-attempts.ts).
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const activity = await readOrderActivity(req.scope, req.params.id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ activity })
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payLaterOrderActivityWorkflow } from "../../../../../../workflows/paylater-activity/activity-workflow"

/**
 * GET /admin/paylater/orders/:id/activity: what PayLater did for the order, from the store's records
 * (nothing is asked of PayLater): `{ activity: { order_id, paylater: null | summary, history, attempts } }`.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { result } = await payLaterOrderActivityWorkflow(req.scope).run({ input: { order_id: req.params.id } })
  res.setHeader("Cache-Control", "no-store")
  res.json({ activity: result })
}

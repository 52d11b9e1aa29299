import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { checkPayLaterOrderWorkflow } from "../../../../../../workflows/paylater-activity/check-workflow"

/**
 * POST /admin/paylater/orders/:id/check: "Check with PayLater now". Asks PayLater about the order's
 * PayLater payments, processes a success exactly as a webhook would (never twice), records the check
 * and answers `{ checks, activity }` (activity as GET .../activity).
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { result } = await checkPayLaterOrderWorkflow(req.scope).run({
    input: { order_id: req.params.id, actor_id: req.auth_context?.actor_id ?? null },
  })
  res.setHeader("Cache-Control", "no-store")
  res.json(result)
}

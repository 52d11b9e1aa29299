import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { checkOrderAndReload } from "../../../../../../signal-handlers/admin-check"

/**
 * POST /admin/paylater/orders/:id/check: "Check with PayLater now". Settles the order's PayLater
 * payments that are not settled yet (a success exactly as a webhook would, never twice), asks about
 * the settled ones read-only, records the check and answers `{ checks, activity }` (activity as GET .../activity).
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const result = await checkOrderAndReload(req.scope, req.params.id, req.auth_context?.actor_id ?? null)
  res.setHeader("Cache-Control", "no-store")
  res.json(result)
}

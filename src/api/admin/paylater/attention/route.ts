import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listAttention } from "./attention"

/** GET /admin/paylater/attention?status=open|resolved|all: PayLater payments needing a person. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const raw = req.query.status
  const status = raw === "resolved" || raw === "all" ? raw : "open"
  res.setHeader("Cache-Control", "no-store")
  res.json({ attention: await listAttention(req.scope, status) })
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { encodeCursor, paymentsPage } from "../../../../../funnel/payments-sql"
import { parseReportQuery, periodView } from "../../../../../funnel/report-query"
import { knexOf } from "../knex"

/**
 * GET /admin/paylater/reports/payments?period=...&method=&limit=50&after=<cursor>
 * The finance report's rows as the page shows them: payments PayLater said paid in the period, in
 * paid order, `limit` at a time; `next` is the cursor of the following page (null at the end).
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const now = new Date()
  const q = parseReportQuery(req.query as Record<string, unknown>, now)
  const page = await paymentsPage(knexOf(req.scope), { period: q.period, now, method: q.method, after: q.after, limit: q.limit })
  res.setHeader("Cache-Control", "no-store")
  res.json({ period: periodView(q.period), payments: page.rows, next: page.next ? encodeCursor(page.next) : null })
}

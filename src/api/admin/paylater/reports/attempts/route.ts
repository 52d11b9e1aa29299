import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { attemptsPage } from "../../../../../funnel/attempts-sql"
import { parseReportQuery, periodView } from "../../../../../funnel/report-query"
import { knexOf } from "../knex"

/**
 * GET /admin/paylater/reports/attempts?period=...&method=&outcome=&offset=&limit=
 * The attempts behind a funnel number: created in the period, of that method and outcome
 * (`paid` = placed, placing or paid without an order), newest first.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const now = new Date()
  const q = parseReportQuery(req.query as Record<string, unknown>, now)
  const rows = await attemptsPage(knexOf(req.scope), { period: q.period, now, method: q.method, outcome: q.outcome, offset: q.offset, limit: q.limit + 1 })
  res.setHeader("Cache-Control", "no-store")
  res.json({ period: periodView(q.period), attempts: rows.slice(0, q.limit), has_more: rows.length > q.limit, offset: q.offset })
}

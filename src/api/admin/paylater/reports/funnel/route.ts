import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { funnelFromSql } from "../../../../../funnel/report-sql"
import { parseReportQuery, periodView } from "../../../../../funnel/report-query"
import { knexOf } from "../knex"

/**
 * GET /admin/paylater/reports/funnel?period=today|7d|30d|90d|custom&from=&to=&tz=Asia/Qatar
 * The funnel per method and in total, per checkout and per attempt, against the previous period
 * of the same length, with the money of the period (what the finance CSV adds up to). Definitions:
 * src/funnel/definitions.ts, docs/funnel.md.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const now = new Date()
  const q = parseReportQuery(req.query as Record<string, unknown>, now)
  const report = await funnelFromSql(knexOf(req.scope), { period: q.period, previous: q.previous, now })
  res.setHeader("Cache-Control", "no-store")
  res.json({ period: periodView(q.period), previous: periodView(q.previous), generated_at: now.toISOString(), ...report })
}

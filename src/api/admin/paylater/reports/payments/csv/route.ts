import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { writePaymentsCsv } from "../../../../../../funnel/csv"
import { parseReportQuery } from "../../../../../../funnel/report-query"
import { knexOf } from "../../knex"

/**
 * GET /admin/paylater/reports/payments/csv?period=...&method=
 * Every payment of the period as CSV (docs/funnel.md: matching PayLater's settlement statements),
 * streamed in batches. The query is checked before the first byte, so a bad one is still a 400;
 * a failure mid-stream can only cut the download short (the log says why).
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const now = new Date()
  const q = parseReportQuery(req.query as Record<string, unknown>, now)
  const name = `paylater-payments-${q.period.from_date}-to-${q.period.to_date}.csv`
  res.status(200)
  res.setHeader("Content-Type", "text/csv; charset=utf-8")
  res.setHeader("Content-Disposition", `attachment; filename="${name}"`)
  res.setHeader("Cache-Control", "no-store")
  try {
    await writePaymentsCsv(knexOf(req.scope), res, { period: q.period, now, method: q.method })
    res.end()
  } catch (error) {
    req.scope.resolve("logger").error(`PayLater: the payments CSV stopped: ${(error as Error).message}`)
    res.destroy(error as Error)
  }
}

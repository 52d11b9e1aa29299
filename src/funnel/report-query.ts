import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { METHODS, OUTCOMES } from "./definitions"
import { addDays, dayOf, DEFAULT_TIME_ZONE, daysBetween, isDate, isTimeZone, MAX_PERIOD_DAYS, periodOf, presetPeriod, PRESETS, previousPeriod, type Period } from "./period"
import { decodeCursor, type PaymentCursor } from "./payments-sql"

/**
 * The query string of the report routes, checked: a preset or a custom range of whole days (at most
 * MAX_PERIOD_DAYS, none after tomorrow), an IANA time zone, and paging within bounds. Anything else is
 * a 400 with a message saying what to send, before any query runs.
 */

const schema = z.object({
  period: z.enum([...PRESETS, "custom"]).default("30d"),
  from: z.string().max(10).optional(),
  to: z.string().max(10).optional(),
  tz: z.string().max(64).default(DEFAULT_TIME_ZONE),
  method: z.enum(METHODS).optional(),
  outcome: z.enum([...OUTCOMES, "paid"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
  after: z.string().max(300).optional(),
})

export interface ReportQuery {
  period: Period
  previous: Period
  method: (typeof METHODS)[number] | null
  outcome: string | null
  limit: number
  offset: number
  after: PaymentCursor | null
}

const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, message)

export function parseReportQuery(query: Record<string, unknown>, now: Date): ReportQuery {
  const parsed = schema.safeParse(query)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalid(`Invalid report query: ${issue.path.join(".") || "query"}: ${issue.message}`)
  }
  const q = parsed.data
  if (!isTimeZone(q.tz)) throw invalid(`Invalid report query: tz "${q.tz}" is not a time zone (e.g. Asia/Qatar)`)
  let period: Period
  if (q.period === "custom") {
    if (!q.from || !q.to || !isDate(q.from) || !isDate(q.to)) {
      throw invalid("Invalid report query: a custom period needs from and to as dates (YYYY-MM-DD)")
    }
    if (q.from > q.to) throw invalid(`Invalid report query: from (${q.from}) is after to (${q.to})`)
    const days = daysBetween(q.from, q.to)
    if (days > MAX_PERIOD_DAYS) throw invalid(`Invalid report query: the period is ${days} days; at most ${MAX_PERIOD_DAYS}`)
    const tomorrow = addDays(dayOf(now, q.tz), 1)
    if (q.to > tomorrow) throw invalid(`Invalid report query: to (${q.to}) is in the future`)
    period = periodOf(q.from, q.to, q.tz)
  } else {
    if (q.from || q.to) throw invalid("Invalid report query: from and to go with period=custom")
    period = presetPeriod(q.period, now, q.tz)
  }
  let after: PaymentCursor | null = null
  if (q.after) {
    after = decodeCursor(q.after)
    if (!after) throw invalid("Invalid report query: after is not a cursor this report gave")
  }
  return { period, previous: previousPeriod(period), method: q.method ?? null, outcome: q.outcome ?? null, limit: q.limit, offset: q.offset, after }
}

/** What a report answer says about its period. */
export const periodView = (p: Period) => ({ from: p.from_date, to: p.to_date, time_zone: p.time_zone, days: p.days, starts_at: p.from.toISOString(), ends_before: p.to.toISOString() })

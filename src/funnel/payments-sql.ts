import type { Knex } from "knex"
import { formatMinorUnits, parseMinorUnits, toTwoDecimals } from "../lib/paylater/money"
import { MONEY_REFUND_STATUSES, paymentStatusOf, type Outcome, type PaymentStatus } from "./definitions"
import { offsetText, type Period } from "./period"
import { OUTCOME_SQL, outcomeParams, sql } from "./report-sql"

/**
 * The finance report's rows: every payment PayLater said paid in the period, in paid order, paged by
 * a keyset cursor (the index IDX_paylater_attempt_paid_at) so a page, or the CSV's next batch,
 * costs the same at row 90,000 as at row 1. Refunds and the Medusa order's display id come in the
 * same query: no per-row round trip.
 */

export interface PaymentRow {
  paylater_order_id: string
  paylater_ref: string | null
  order_id: string | null
  order_display_id: number | null
  method: string
  /** When PayLater first said paid (ISO, UTC). */
  paid_at: string
  /** The same instant as the store's wall clock with its offset (2026-11-10T12:03:00+03:00): the CSV's. */
  paid_at_local: string
  amount: string
  refunded: string
  net: string
  status: PaymentStatus
  currency_code: string
  mobile_number_masked: string | null
}

/** Where the next page starts: the last row's paid time (PostgreSQL's exact text) and id. */
export interface PaymentCursor {
  at: string
  id: string
}

const MONEY_REFUNDS = `(${MONEY_REFUND_STATUSES.map((s) => `'${s}'`).join(", ")})`

// The Medusa order's display id is read from the order module's table in the same database (one
// join instead of a Query call per page); an order the module no longer has leaves it empty. The
// paid time comes as text (UTC ISO, and the zone's wall clock with its offset in minutes), formatted
// by PostgreSQL while Node formats the previous page: parsing a Date per row and converting it to the
// zone with Intl cost the CSV more than the query did.
const PAGE = `
select p.id, p.paylater_order_id, p.paylater_ref, p.order_id, p.kind, p.at_key, p.paid_iso, p.paid_local, p.offset_minutes,
  p.amount, p.currency_code, p.mobile, p.outcome, p.refunded, o.display_id
from (
  select id, paylater_order_id, paylater_ref, order_id, kind, paid_at, paid_at::text as at_key,
    to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as paid_iso,
    to_char(paid_at at time zone $tz, 'YYYY-MM-DD"T"HH24:MI:SS') as paid_local,
    round(date_part('epoch', (paid_at at time zone $tz) - (paid_at at time zone 'UTC')) / 60)::int as offset_minutes,
    round(amount, 2)::text as amount, currency_code, detail ->> 'mobile_number_masked' as mobile,
    ${OUTCOME_SQL} as outcome,
    coalesce((select sum(round(r.amount, 2)) from paylater_refund_attempt r
              where r.paylater_order_id = a.paylater_order_id and r.deleted_at is null and r.status in ${MONEY_REFUNDS}
                and r.sent_at < $to), 0)::text as refunded
  from paylater_attempt a
  where deleted_at is null and state = 'paid' and paid_at >= $from and paid_at < $to
    and ($method::text is null or kind = $method)
    and ($after_at::timestamptz is null or (paid_at, id) > ($after_at::timestamptz, $after_id::text))
  order by paid_at, id
  limit $limit
) p
left join "order" o on o.id = p.order_id
order by p.paid_at, p.id
`

type PageInput = { period: Period; now: Date; method?: string | null; after?: PaymentCursor | null; limit: number }

/** One page's query with its values (also what bench/funnel.js EXPLAINs). */
export function paymentsQuery(input: PageInput): { text: string; params: Record<string, unknown> } {
  return {
    text: PAGE,
    params: {
      from: input.period.from,
      to: input.period.to,
      tz: input.period.time_zone,
      method: input.method ?? null,
      after_at: input.after?.at ?? null,
      after_id: input.after?.id ?? null,
      limit: input.limit,
      ...outcomeParams(input.now),
    },
  }
}

export async function paymentsPage(
  knex: Knex,
  input: PageInput
): Promise<{ rows: PaymentRow[]; next: PaymentCursor | null }> {
  const q = paymentsQuery(input)
  const raw = await sql(knex, q.text, q.params)
  const rows = raw.map((r): PaymentRow => {
    const amount = toTwoDecimals(r.amount)
    const refunded = toTwoDecimals(r.refunded)
    return {
      paylater_order_id: r.paylater_order_id,
      paylater_ref: r.paylater_ref ?? null,
      order_id: r.order_id ?? null,
      order_display_id: r.display_id === null || r.display_id === undefined ? null : Number(r.display_id),
      method: r.kind,
      paid_at: r.paid_iso,
      paid_at_local: `${r.paid_local}${offsetText(r.offset_minutes)}`,
      amount,
      refunded,
      net: formatMinorUnits(parseMinorUnits(amount) - parseMinorUnits(refunded)),
      status: paymentStatusOf(r.outcome as Outcome, amount, refunded),
      currency_code: r.currency_code,
      mobile_number_masked: r.mobile ?? null,
    }
  })
  const last = raw.at(-1)
  return { rows, next: raw.length === input.limit && last ? { at: last.at_key, id: last.id } : null }
}

const TIMESTAMP_TEXT = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d)?|Z)?$/

export const encodeCursor = (c: PaymentCursor): string => Buffer.from(JSON.stringify([c.at, c.id])).toString("base64url")

/** The cursor a page handed out, or null when it is not one (the route answers 400). */
export function decodeCursor(text: string): PaymentCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"))
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") return null
    // PostgreSQL's own timestamptz text (e.g. 2026-11-10 09:03:00.123+00), cast back by the query.
    if (!TIMESTAMP_TEXT.test(value[0]) || value[1].length > 100) return null
    return { at: value[0], id: value[1] }
  } catch {
    return null
  }
}

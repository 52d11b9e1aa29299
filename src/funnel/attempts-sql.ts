import type { Knex } from "knex"
import { toTwoDecimals } from "../lib/paylater/money"
import type { Outcome } from "./definitions"
import type { Period } from "./period"
import { OUTCOME_SQL, outcomeParams, sql } from "./report-sql"

/**
 * The attempts behind a funnel number: the period's attempts (by creation, newest first) of one
 * method and outcome. What the funnel's counts link to; paged by offset (bounded by the route).
 */

export interface AttemptRow {
  paylater_order_id: string
  paylater_ref: string | null
  method: string
  outcome: Outcome
  created_at: string
  amount: string
  currency_code: string
  cart_id: string | null
  order_id: string | null
  start_error: string | null
  mobile_number_masked: string | null
}

const PAGE = `
select * from (
  select id, paylater_order_id, paylater_ref, kind, created_at, round(amount, 2)::text as amount, currency_code, cart_id, order_id,
    start_error, detail ->> 'mobile_number_masked' as mobile, ${OUTCOME_SQL} as outcome
  from paylater_attempt
  where deleted_at is null and created_at >= $from and created_at < $to and ($method::text is null or kind = $method)
) t
where ($outcome::text is null or outcome = $outcome
       or ($outcome = 'paid' and outcome in ('placed', 'placing', 'paid_without_order')))
order by created_at desc, id desc
offset $offset limit $limit
`

export async function attemptsPage(
  knex: Knex,
  input: { period: Period; now: Date; method?: string | null; outcome?: string | null; offset: number; limit: number }
): Promise<AttemptRow[]> {
  const rows = await sql(knex, PAGE, {
    from: input.period.from,
    to: input.period.to,
    method: input.method ?? null,
    outcome: input.outcome ?? null,
    offset: input.offset,
    limit: input.limit,
    ...outcomeParams(input.now),
  })
  return rows.map((r) => ({
    paylater_order_id: r.paylater_order_id,
    paylater_ref: r.paylater_ref ?? null,
    method: r.kind,
    outcome: r.outcome,
    created_at: new Date(r.created_at).toISOString(),
    amount: toTwoDecimals(r.amount),
    currency_code: r.currency_code,
    cart_id: r.cart_id ?? null,
    order_id: r.order_id ?? null,
    start_error: r.start_error ?? null,
    mobile_number_masked: r.mobile ?? null,
  }))
}

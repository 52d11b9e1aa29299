import type { Knex } from "knex"
import { formatMinorUnits, parseMinorUnits, toTwoDecimals } from "../lib/paylater/money"
import { EXPIRY_GRACE_MS } from "../modules/paylater-ledger/attempt-state"
import {
  addOutcome,
  conversion,
  conversionChange,
  emptyCounts,
  ERROR_CODES_SHOWN,
  METHODS,
  MONEY_REFUND_STATUSES,
  OUTCOMES,
  PLACING_GRACE_MS,
  type Counts,
  type FunnelReport,
  type MethodFunnel,
  type MethodKey,
  type Outcome,
} from "./definitions"
import { daysOf, type Period } from "./period"

/**
 * definitions.ts computed in PostgreSQL: a few aggregate queries over the period's rows (indexes:
 * Migration20261126181000), no row leaves the database. A test holds its answer equal to
 * computeFunnel over the same ledger (integration-tests/http/paylater-funnel.spec.ts).
 */

type Row = Record<string, any>

/** `$name` placeholders → knex's positional `?` (no `?` operator is used in these queries). */
export async function sql(knex: Knex, text: string, params: Record<string, unknown>): Promise<Row[]> {
  const values: unknown[] = []
  const query = text.replace(/\$([a-z_]+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`report-sql: no value for $${name}`)
    values.push(params[name])
    return "?"
  })
  const result = (await knex.raw(query, values as Knex.RawBinding[])) as { rows: Row[] }
  return result.rows
}

/** Enough for 200,000 attempts' checkouts in memory (the hash aggregates spill to disk otherwise). */
const COHORT_WORK_MEM = "64MB"

const PAID_OUTCOMES = "('placed', 'placing', 'paid_without_order')"
const MONEY_REFUNDS = `(${MONEY_REFUND_STATUSES.map((s) => `'${s}'`).join(", ")})`

/** definitions.ts outcomeOf, in SQL, for the rows of `paylater_attempt`. */
export const OUTCOME_SQL = `case
    when state = 'paid' then
      case when order_id is not null then 'placed'
           when coalesce(last_status_at, created_at) > $placing_since then 'placing'
           else 'paid_without_order' end
    when state in ('declined', 'never_started') then 'declined'
    when state = 'expired' then 'expired'
    when superseded_by is not null or session_gone_at is not null then 'abandoned'
    when expires_at is not null and expires_at <= $expired_before then 'expired'
    else 'open' end`

export const outcomeParams = (now: Date) => ({
  placing_since: new Date(now.getTime() - PLACING_GRACE_MS),
  expired_before: new Date(now.getTime() - EXPIRY_GRACE_MS),
})

// One scan of the cohort, several answers: rows of (section, p, kind, key, n, x, y); x and y are the
// median and p90 for time_to_pay, x the converted checkouts for daily.
const COHORT = `
with a as (
  select paylater_order_id, kind, coalesce(cart_id, payment_collection_id, session_id) as checkout, created_at, state,
    last_status_at, start_error,
    case when created_at >= $from then 'cur' else 'prev' end as p,
    ${OUTCOME_SQL} as outcome
  from paylater_attempt
  where deleted_at is null and created_at >= $prev_from and created_at < $to
),
ck as (
  -- Per checkout and method. Hash-aggregable on purpose (no ordered aggregate): the latest attempt
  -- is the greatest "creation time, id" key, compared byte-wise (collate "C", as the definitions do).
  select p, kind, checkout, min(created_at) as first_at,
    bool_or(outcome = 'placed') as has_placed, bool_or(outcome = 'placing') as has_placing,
    bool_or(outcome = 'paid_without_order') as has_pwo,
    max((to_char(created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || paylater_order_id || chr(1) || outcome) collate "C") as last_key
  from a group by p, kind, checkout
),
c as (
  select p, kind, 0 as all_kinds, first_at, has_placed, has_placing, has_pwo, last_key from ck
  union all
  select p, null, 1, min(first_at), bool_or(has_placed), bool_or(has_placing), bool_or(has_pwo), max(last_key collate "C")
  from ck group by p, checkout
),
co as (
  select p, kind, all_kinds, first_at,
    case when has_placed then 'placed' when has_placing then 'placing' when has_pwo then 'paid_without_order'
         else split_part(last_key, chr(1), 2) end as outcome
  from c
)
select 'attempts' as section, p, coalesce(kind, 'total') as kind, outcome as key, count(*)::int as n,
  null::bigint as x, null::bigint as y
  from a group by grouping sets ((p, kind, outcome), (p, outcome))
union all
select 'checkouts', p, case when all_kinds = 1 then 'total' else kind end, outcome, count(*)::int, null, null
  from co group by p, all_kinds, kind, outcome
union all
select 'time_to_pay', 'cur', case when grouping(kind) = 1 then 'total' else kind end, null, count(*)::int,
    percentile_disc(0.5) within group (order by s), percentile_disc(0.9) within group (order by s)
  from (select kind, round(extract(epoch from (coalesce(last_status_at, created_at) - created_at)))::bigint as s
        from a where p = 'cur' and state = 'paid') t
  group by grouping sets ((kind), ())
union all
select 'rtp', 'cur', 'request_to_pay', outcome, count(*)::int, null, null
  from a where p = 'cur' and kind = 'request_to_pay' and state <> 'never_started' group by outcome
union all
(select 'errors', 'cur', 'total', start_error, count(*)::int, null, null
  from a where p = 'cur' and start_error is not null group by start_error
  order by count(*) desc, start_error collate "C" limit ${ERROR_CODES_SHOWN})
union all
select 'daily', 'cur', 'total', to_char(first_at at time zone $tz, 'YYYY-MM-DD'), count(*)::int,
    count(*) filter (where outcome in ${PAID_OUTCOMES}), null
  from co where p = 'cur' and all_kinds = 1 group by 4
`

const MONEY = `
with paid as (
  select paylater_order_id, kind, round(amount, 2) as amount, last_status_at
  from paylater_attempt
  where deleted_at is null and state = 'paid' and last_status_at >= $from and last_status_at < $to
),
refunded as (
  select r.paylater_order_id, sum(round(r.amount, 2)) as amount
  from paylater_refund_attempt r join paid on paid.paylater_order_id = r.paylater_order_id
  where r.deleted_at is null and r.status in ${MONEY_REFUNDS} and r.sent_at < $to
  group by r.paylater_order_id
)
select 'money' as section, case when grouping(kind) = 1 then 'total' else kind end as kind, null as day, count(*)::int as n,
    coalesce(sum(paid.amount), 0)::text as paid, coalesce(sum(refunded.amount), 0)::text as refunded
  from paid left join refunded on refunded.paylater_order_id = paid.paylater_order_id
  group by grouping sets ((kind), ())
union all
select 'daily', 'total', to_char(last_status_at at time zone $tz, 'YYYY-MM-DD'), count(*)::int, sum(amount)::text, null
  from paid group by 3
`

const REFUNDS = `
select case when grouping(kind) = 1 then 'total' else kind end as kind, grouping(kind) as all_kinds, count(*)::int as n,
    coalesce(sum(amount), 0)::text as amount
from (
  -- Each refund's method by its PayLater order (the unique index): no scan of the attempts.
  select round(r.amount, 2) as amount,
    (select a.kind from paylater_attempt a where a.paylater_order_id = r.paylater_order_id and a.deleted_at is null) as kind
  from paylater_refund_attempt r
  where r.deleted_at is null and r.status in ${MONEY_REFUNDS} and r.sent_at >= $from and r.sent_at < $to
) t
group by grouping sets ((kind), ())
`

/** The funnel's queries with their values (also what bench/funnel.js EXPLAINs). */
export function funnelQueries(input: { period: Period; previous: Period; now: Date }): Array<{ name: string; text: string; params: Record<string, unknown> }> {
  const { period, previous, now } = input
  const base = { from: period.from, to: period.to, tz: period.time_zone }
  return [
    { name: "cohort", text: COHORT, params: { ...base, prev_from: previous.from, ...outcomeParams(now) } },
    { name: "money", text: MONEY, params: base },
    { name: "refunds", text: REFUNDS, params: base },
  ]
}

const isOutcome = (v: unknown): v is Outcome => (OUTCOMES as readonly string[]).includes(v as string)

/** The report of definitions.ts computeFunnel, from the database. */
export async function funnelFromSql(knex: Knex, input: { period: Period; previous: Period; now: Date }): Promise<FunnelReport> {
  const { period, previous, now } = input
  const [cohort, money, refunds] = await Promise.all(
    funnelQueries(input).map((q) =>
      q.name === "cohort"
        ? // Its hash aggregates hold a period's checkouts: more than PostgreSQL's default 4 MB, for this transaction only.
          knex.transaction(async (trx) => {
            await trx.raw(`set local work_mem = '${COHORT_WORK_MEM}'`)
            return sql(trx, q.text, q.params)
          })
        : sql(knex, q.text, q.params)
    )
  )
  const keys: MethodKey[] = [...METHODS, "total"]
  const counts = (section: string, p: string, kind: MethodKey): Counts => {
    const c = emptyCounts()
    for (const r of cohort) if (r.section === section && r.p === p && r.kind === kind && isOutcome(r.key)) addOutcome(c, r.key, r.n)
    return c
  }
  const methods = {} as Record<MethodKey, MethodFunnel>
  for (const kind of keys) {
    const checkouts = counts("checkouts", "cur", kind)
    const attempts = counts("attempts", "cur", kind)
    const conv = { checkouts: conversion(checkouts), attempts: conversion(attempts) }
    const prev = { checkouts: conversion(counts("checkouts", "prev", kind)), attempts: conversion(counts("attempts", "prev", kind)) }
    const ttp = cohort.find((r) => r.section === "time_to_pay" && r.kind === kind)
    const m = money.find((r) => r.section === "money" && r.kind === kind)
    // A refund whose attempt is unknown has no method: it counts in the total only.
    const rf = refunds.find((r) => r.kind === kind && (kind === "total") === (r.all_kinds === 1))
    const paid = toTwoDecimals(m?.paid ?? "0")
    const refunded = toTwoDecimals(m?.refunded ?? "0")
    methods[kind] = {
      checkouts,
      attempts,
      conversion: conv,
      previous_conversion: prev,
      conversion_change: { checkouts: conversionChange(conv.checkouts, prev.checkouts), attempts: conversionChange(conv.attempts, prev.attempts) },
      time_to_pay: { median_s: ttp ? Number(ttp.x) : null, p90_s: ttp ? Number(ttp.y) : null },
      money: { payments: m?.n ?? 0, paid, refunded, net: formatMinorUnits(parseMinorUnits(paid) - parseMinorUnits(refunded)) },
      refunds: { count: rf?.n ?? 0, amount: toTwoDecimals(rf?.amount ?? "0") },
    }
  }
  const rtp = (o: Outcome) => cohort.find((r) => r.section === "rtp" && r.key === o)?.n ?? 0
  const rtpAll = cohort.filter((r) => r.section === "rtp").reduce((s, r) => s + r.n, 0)
  const cohortDay = new Map(cohort.filter((r) => r.section === "daily").map((r) => [r.key as string, r]))
  const moneyDay = new Map(money.filter((r) => r.section === "daily").map((r) => [r.day as string, r]))
  return {
    currency_code: "qar",
    methods,
    request_to_pay: {
      pushes_sent: rtpAll,
      approved: rtp("placed") + rtp("placing") + rtp("paid_without_order"),
      declined: rtp("declined"),
      expired: rtp("expired"),
      abandoned: rtp("abandoned"),
      open: rtp("open"),
    },
    errors: cohort
      .filter((r) => r.section === "errors")
      .map((r) => ({ code: r.key as string, count: r.n as number }))
      .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1)),
    daily: daysOf(period).map((date) => {
      const c = cohortDay.get(date)
      const m = moneyDay.get(date)
      const started = c?.n ?? 0
      const converted = Number(c?.x ?? 0)
      return { date, paid: toTwoDecimals(m?.paid ?? "0"), payments: m?.n ?? 0, started, converted, conversion: conversion({ paid: converted, started }) }
    }),
  }
}

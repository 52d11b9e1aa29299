import type { Knex } from "knex"
import { formatMinorUnits, parseMinorUnits, toTwoDecimals } from "../lib/paylater/money"
import { EXPIRY_GRACE_MS } from "../modules/paylater-ledger/attempt-state"
import {
  addOutcome,
  conversion,
  conversionChange,
  emptyCounts,
  ERROR_CODES_SHOWN,
  isLookupRefusal,
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
import { LOOKUP_TALLY, lookupRefusalsTotal } from "./lookup-tally"
import { daysOf, startOfDay, type Period } from "./period"

/** The instants the period's days start, in order. */
export const dayStarts = (period: Period): Date[] => daysOf(period).map((d) => startOfDay(d, period.time_zone))

/**
 * definitions.ts computed in PostgreSQL: five aggregate queries run at once (the period's cohort,
 * the previous period's conversion, the money, the refunds sent, the store route's look-up refusals) over the periods' rows (indexes:
 * Migration20261126181000, Migration20261126220000), each reading its rows once; no row leaves the
 * database. A test holds the answer equal to computeFunnel over the same ledger
 * (integration-tests/http/default-app/paylater-reports.ts).
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

/** Enough for a period's checkouts in one hash table (the aggregate spills to disk otherwise). */
const COHORT_WORK_MEM = "64MB"

const MONEY_REFUNDS = `(${MONEY_REFUND_STATUSES.map((s) => `'${s}'`).join(", ")})`

/** definitions.ts outcomeOf, in SQL, as the outcome's index in OUTCOMES (0 placed ... 6 open). */
export const OUTCOME_INDEX_SQL = `case
    when state = 'paid' then
      case when order_id is not null then 0
           when superseded_by is not null or session_gone_at is not null then 2
           when coalesce(paid_at, created_at) > $placing_since then 1
           else 2 end
    when state in ('declined', 'never_started') then 3
    when state = 'expired' then 4
    when superseded_by is not null or session_gone_at is not null then 5
    when expires_at is not null and expires_at <= $expired_before then 4
    else 6 end`

/** The same outcome by name. */
export const OUTCOME_SQL = `(array[${OUTCOMES.map((o) => `'${o}'`).join(", ")}])[(${OUTCOME_INDEX_SQL}) + 1]`

export const outcomeParams = (now: Date) => ({
  placing_since: new Date(now.getTime() - PLACING_GRACE_MS),
  expired_before: new Date(now.getTime() - EXPIRY_GRACE_MS),
})

// A checkout's outcome (definitions.ts checkoutOutcomeOf) in one hash aggregate per checkout, in
// total and per method at once, as the greatest of an integer key per attempt: a paid attempt's key
// is above every other (PAID_KEY plus 3 for placed, 2 for placing, 1 for paid without an order), so
// any payment wins and the best one; an unpaid attempt's is its creation in microseconds shifted
// left 3 bits with its outcome in them, so the latest wins. One max() per method, and no text built
// per attempt (what the first version's keys cost most of its time). date_part's float8 epoch is
// exact to well under a microsecond until 2038, and the key keeps the order whatever its rounding;
// extract()'s numeric is several times slower.
const PAID_KEY = "4611686018427387904" // 2^62, above any creation key (2^53 microseconds × 8)
const KEY_SQL = `case when o < 3 then ${PAID_KEY} + 3 - o else round(date_part('epoch', created_at) * 1000000)::bigint * 8 + o end`
const checkoutOutcome = (kind: string | null) => `max(key)${kind ? ` filter (where kind = '${kind}')` : ""}`
/** The outcome index back from a checkout's greatest key. */
const outcomeOfKey = (column: string) => `case when ${column} >= ${PAID_KEY} then (${PAID_KEY} + 3 - ${column})::int else (${column} % 8)::int end`

// One pass over the period's attempts (materialised once, read by each section): rows of
// (section, kind, o, code, n, x, y). attempts: per method, outcome and start error, x = never
// started; checkouts: per method (or total) and outcome; daily: per day (o = the day's number in the
// period) of a checkout's first attempt, x = converted; time_to_pay: count, x = median, y = p90
// (seconds). Days are found among the period's day starts (width_bucket: a binary search) rather
// than by converting each row to the zone.
const COHORT = `
with a as materialized (
  select kind, state, start_error, created_at, paid_at, coalesce(cart_id, payment_collection_id, session_id) as checkout,
    ${OUTCOME_INDEX_SQL} as o
  from paylater_attempt
  where deleted_at is null and created_at >= $from and created_at < $to
),
keys as (
  select min(created_at) as first_at, ${checkoutOutcome(null)} as k_total,
    ${METHODS.map((m) => `${checkoutOutcome(m)} as k_${m}`).join(",\n    ")}
  from (select checkout, kind, created_at, ${KEY_SQL} as key from a) t
  group by checkout
),
k as (
  select first_at, ${outcomeOfKey("k_total")} as o_total,
    ${METHODS.map((m) => `${outcomeOfKey(`k_${m}`)} as o_${m}`).join(",\n    ")}
  from keys
)
select 'attempts' as section, kind, o, start_error as code, count(*)::int as n,
    count(*) filter (where state = 'never_started')::bigint as x, null::bigint as y
  from a group by kind, o, start_error
union all
select 'checkouts',
    case ${METHODS.map((m) => `when grouping(o_${m}) = 0 then '${m}'`).join(" ")} else 'total' end,
    coalesce(${METHODS.map((m) => `o_${m}`).join(", ")}, o_total), null, count(*)::int, null, null
  from k group by grouping sets ((o_total), ${METHODS.map((m) => `(o_${m})`).join(", ")})
union all
select 'daily', 'total', width_bucket(first_at, $day_starts::timestamptz[]), null, count(*)::int, count(*) filter (where o_total < 3), null
  from k group by 3
union all
select 'time_to_pay', case when grouping(kind) = 1 then 'total' else kind end, null, null, count(*)::int,
    percentile_disc(0.5) within group (order by s), percentile_disc(0.9) within group (order by s)
  from (select kind, floor(date_part('epoch', coalesce(paid_at, created_at) - created_at) + 0.5)::bigint as s
        from a where state = 'paid') t
  group by grouping sets ((kind), ())
`

// The previous period needs conversion only (paid / started, per method and in total, per attempt
// and per checkout), and paid is state = 'paid' whatever the order: no outcome, no key. A checkout
// is one bit_or of a mask per attempt: bit 0..2 its method was used, bit 3..5 it was paid by it.
const KIND_BIT = `case kind ${METHODS.map((m, i) => `when '${m}' then ${1 << i}`).join(" ")} else 0 end`
const PREVIOUS = `
select 'attempts' as section, kind, null::int as mask, count(*)::int as n, count(*) filter (where state = 'paid')::int as paid
  from paylater_attempt where deleted_at is null and created_at >= $range_from and created_at < $range_to group by kind
union all
select 'checkouts', null, mask, count(*)::int, null from (
  select bit_or(${KIND_BIT} * case when state = 'paid' then 9 else 1 end) as mask
  from paylater_attempt where deleted_at is null and created_at >= $range_from and created_at < $range_to
  group by coalesce(cart_id, payment_collection_id, session_id)
) m group by mask
`

/** paid / started of the previous period, from PREVIOUS's rows. */
function previousConversion(rows: Row[], kind: MethodKey): { checkouts: number | null; attempts: number | null } {
  const attempts = rows.filter((r) => r.section === "attempts" && (kind === "total" || r.kind === kind))
  const bit = kind === "total" ? (1 << METHODS.length) - 1 : 1 << METHODS.indexOf(kind)
  // A checkout with attempts of no known method still counts in the total (mask 0 or 8..: none here by the ledger's kinds).
  const checkouts = rows.filter((r) => r.section === "checkouts" && (kind === "total" || (r.mask & bit) !== 0))
  return {
    attempts: conversion({ started: attempts.reduce((s, r) => s + r.n, 0), paid: attempts.reduce((s, r) => s + r.paid, 0) }),
    checkouts: conversion({
      started: checkouts.reduce((s, r) => s + r.n, 0),
      paid: checkouts.filter((r) => (r.mask & (bit << METHODS.length)) !== 0).reduce((s, r) => s + r.n, 0),
    }),
  }
}

// Payments by the day PayLater first said paid, their refunds sent by the period's end joined by
// PayLater order (hash join on a small table), summed per method, per day and in total in one pass.
const MONEY = `
select case when grouping(kind) = 0 then kind when grouping(day) = 0 then 'daily' else 'total' end as kind,
    day, count(*)::int as n, coalesce(sum(amount), 0)::text as paid, coalesce(sum(refunded), 0)::text as refunded
from (
  select a.kind, round(a.amount, 2) as amount, width_bucket(a.paid_at, $day_starts::timestamptz[]) as day, r.amount as refunded
  from paylater_attempt a
  left join (
    select paylater_order_id, sum(round(amount, 2)) as amount from paylater_refund_attempt
    where deleted_at is null and status in ${MONEY_REFUNDS} and sent_at < $to
    group by paylater_order_id
  ) r on r.paylater_order_id = a.paylater_order_id
  where a.deleted_at is null and a.state = 'paid' and a.paid_at >= $from and a.paid_at < $to
) p
group by grouping sets ((kind), (day), ())
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

/**
 * For the two queries over a period's checkouts, in their own transaction only: their hash
 * aggregates hold a period's checkouts (more than PostgreSQL's default 4 MB of work_mem), and they
 * read only IDX_paylater_attempt_cohort's columns, while around a quarter of the table (a 90-day
 * period of a year's history) the planner's costs sometimes chose to read the whole table instead,
 * rows several times wider than the index's, and took twice as long (bench/funnel.js, BENCHMARKS.md).
 */
const CHECKOUT_SETTINGS = [`set local work_mem = '${COHORT_WORK_MEM}'`, "set local enable_seqscan = off"]

/** The funnel's queries with their values and settings (also what bench/funnel.js EXPLAINs). */
export function funnelQueries(input: {
  period: Period
  previous: Period
  now: Date
}): Array<{ name: string; text: string; params: Record<string, unknown>; settings: string[] }> {
  const { period, previous, now } = input
  // The instant each day of the period starts (its local midnight): day n is the n-th bucket.
  const base = { from: period.from, to: period.to, day_starts: dayStarts(period) }
  // The period and the one before it (its conversion only) as two queries PostgreSQL runs at once.
  return [
    { name: "cohort", text: COHORT, params: { ...base, ...outcomeParams(now) }, settings: CHECKOUT_SETTINGS },
    { name: "previous", text: PREVIOUS, params: { range_from: previous.from, range_to: previous.to }, settings: CHECKOUT_SETTINGS },
    { name: "money", text: MONEY, params: base, settings: [] },
    { name: "refunds", text: REFUNDS, params: base, settings: [] },
    {
      name: "lookup_tally",
      text: LOOKUP_TALLY,
      params: { from: period.from, to: period.to, tz: period.time_zone, from_date: period.from_date, to_date: period.to_date },
      settings: [],
    },
  ]
}

/** The report of definitions.ts computeFunnel, from the database. */
export async function funnelFromSql(knex: Knex, input: { period: Period; previous: Period; now: Date }): Promise<FunnelReport> {
  const { period } = input
  const [cohort, before, money, refunds, lookupTally] = await Promise.all(
    funnelQueries(input).map((q) =>
      q.settings.length
        ? knex.transaction(async (trx) => {
            for (const setting of q.settings) await trx.raw(setting)
            return sql(trx, q.text, q.params)
          })
        : sql(knex, q.text, q.params)
    )
  )
  const keys: MethodKey[] = [...METHODS, "total"]
  const counts = (section: string, kind: MethodKey): Counts => {
    const c = emptyCounts()
    for (const r of cohort) {
      if (r.section !== section || r.o === null || (section === "checkouts" && r.kind !== kind)) continue
      if (section === "attempts" && kind !== "total" && r.kind !== kind) continue
      addOutcome(c, OUTCOMES[r.o as number], r.n)
    }
    return c
  }
  const methods = {} as Record<MethodKey, MethodFunnel>
  for (const kind of keys) {
    const checkouts = counts("checkouts", kind)
    const attempts = counts("attempts", kind)
    const conv = { checkouts: conversion(checkouts), attempts: conversion(attempts) }
    const prev = previousConversion(before, kind)
    const ttp = cohort.find((r) => r.section === "time_to_pay" && r.kind === kind)
    const m = money.find((r) => r.kind === kind)
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
      // Over no paid attempt the percentiles are null (the total's row is there, with a count of 0).
      time_to_pay: { median_s: ttp?.x == null ? null : Number(ttp.x), p90_s: ttp?.y == null ? null : Number(ttp.y) },
      money: { payments: m?.n ?? 0, paid, refunded, net: formatMinorUnits(parseMinorUnits(paid) - parseMinorUnits(refunded)) },
      refunds: { count: rf?.n ?? 0, amount: toTwoDecimals(rf?.amount ?? "0") },
    }
  }
  const rtpRows = cohort.filter((r) => r.section === "attempts" && r.kind === "request_to_pay")
  const startErrors = cohort.filter((r) => r.section === "attempts" && r.code !== null)
  // Pushes: Requests to Pay PayLater accepted, so not the ones it refused to create (never started).
  const rtp = (o: Outcome) => rtpRows.filter((r) => OUTCOMES[r.o] === o).reduce((s, r) => s + r.n - Number(r.x), 0)
  const errorCounts = new Map<string, number>()
  for (const r of startErrors) errorCounts.set(r.code, (errorCounts.get(r.code) ?? 0) + r.n)
  const cohortDay = new Map(cohort.filter((r) => r.section === "daily").map((r) => [r.o as number, r]))
  const moneyDay = new Map(money.filter((r) => r.kind === "daily").map((r) => [r.day as number, r]))
  return {
    currency_code: "qar",
    methods,
    request_to_pay: {
      pushes_sent: OUTCOMES.reduce((s, o) => s + rtp(o), 0),
      approved: rtp("placed") + rtp("placing") + rtp("paid_without_order"),
      declined: rtp("declined"),
      expired: rtp("expired"),
      abandoned: rtp("abandoned"),
      open: rtp("open"),
      lookup_refusals: lookupRefusalsTotal(
        startErrors.filter((r) => r.kind === "request_to_pay" && isLookupRefusal(r.code)).reduce((s, r) => s + r.n, 0),
        lookupTally
      ),
    },
    errors: [...errorCounts]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1))
      .slice(0, ERROR_CODES_SHOWN),
    daily: daysOf(period).map((date, i) => {
      const c = cohortDay.get(i + 1)
      const m = moneyDay.get(i + 1)
      const started = c?.n ?? 0
      const converted = Number(c?.x ?? 0)
      return { date, paid: toTwoDecimals(m?.paid ?? "0"), payments: m?.n ?? 0, started, converted, conversion: conversion({ paid: converted, started }) }
    }),
  }
}

import { formatMinorUnits, toTwoDecimals, parseMinorUnits } from "../lib/paylater/money"
import { EXPIRY_GRACE_MS, type AttemptKind, type AttemptState } from "../modules/paylater-ledger/attempt-state"
import { dayOf, daysOf, type Period } from "./period"

/**
 * What the funnel and the finance report mean, in one place. Pure: ledger rows, the period and
 * `now` in, figures out. The SQL (report-sql.ts) computes the same figures in the database and a
 * test holds the two equal over one seeded history; docs/funnel.md says the same in words.
 *
 * A **checkout** is a cart (a point-of-sale request: its order's payment collection; a row with
 * neither: its session). It may have several **attempts** (PayLater orders): a declined Request to
 * Pay then a link, a link re-created after the cart changed. Counts are given both ways: per
 * checkout (did the shopper end up paying?) and per attempt (what happened to each PayLater order,
 * which is what moves money).
 *
 * Cohort figures (started ... open, conversion, time to pay, Request to Pay, errors) count the
 * attempts **created** in the period. Money figures count by their own date: a payment in the
 * period PayLater said it was paid, a refund in the period it was sent to PayLater, whatever period
 * its payment was in.
 */

/**
 * Paid with no order yet is "placing" for this long after PayLater said paid (the order is being
 * made), unless nothing can place it any more: its session was deleted or a newer attempt replaced
 * it (an extra payment from a second tab, a cart that could not become an order), which Settings →
 * PayLater lists at once as paid without an order, and so does every other screen.
 */
export const PLACING_GRACE_MS = 10 * 60_000
/** Refund attempts that moved money: PayLater accepted it, or an operator confirmed it did. */
export const MONEY_REFUND_STATUSES = ["succeeded", "refunded"] as const
export const ERROR_CODES_SHOWN = 5
/**
 * A Request to Pay refused before anything reached the shopper's phone because of who the shopper
 * is: the shopper look-up found no PayLater account for the number and email, or too little
 * spending room (`paylater_not_eligible`), or PayLater answered the push that it cannot deliver to
 * the number (`paylater_rtp_try_later`, RTP-UPSTREAM-ERROR: a number it does not know). The ledger
 * keeps them as the attempt's `start_error`.
 */
export const LOOKUP_REFUSAL_CODES = ["paylater_not_eligible", "paylater_rtp_try_later"] as const

export const OUTCOMES = ["placed", "placing", "paid_without_order", "declined", "expired", "abandoned", "open"] as const
/**
 * - placed: paid, and the payment is recorded on a Medusa order (for point of sale: the order it was for);
 * - placing: paid less than PLACING_GRACE_MS ago, no order yet, its session still live and current;
 * - paid_without_order: paid with no order, longer ago than that or with no live session to place
 *   it (deleted or replaced: the plugin lists it at once, and refunds or holds it);
 * - declined: PayLater (or the shopper in PayLater's app) refused it, or refused to create it;
 * - expired: PayLater ended it at its expiry, or it is past its expiry (+ grace) with no word;
 * - abandoned: not ended by PayLater, but the shopper moved on (a newer attempt replaced it, or
 *   Medusa deleted its session: another method, a changed cart);
 * - open: still waiting for the shopper.
 * paid = placed + placing + paid_without_order.
 */
export type Outcome = (typeof OUTCOMES)[number]
const PAID: ReadonlySet<Outcome> = new Set(["placed", "placing", "paid_without_order"])
export const isPaidOutcome = (o: Outcome) => PAID.has(o)
export const isLookupRefusal = (code: string | null) => !!code && (LOOKUP_REFUSAL_CODES as readonly string[]).includes(code)

export interface FunnelAttempt {
  paylater_order_id: string
  kind: AttemptKind
  cart_id: string | null
  payment_collection_id: string | null
  session_id: string
  /** Decimal text (the ledger's numeric). */
  amount: string
  currency_code: string
  state: AttemptState
  created_at: Date
  /** PayLater's last word, whenever it was asked (moves each time). */
  last_status_at: Date | null
  /** For a paid attempt: when PayLater first said paid (written once by the ledger). */
  paid_at: Date | null
  expires_at: Date | null
  order_id: string | null
  superseded_by: string | null
  session_gone_at: Date | null
  start_error: string | null
}

export interface FunnelRefund {
  paylater_order_id: string
  amount: string
  status: string
  sent_at: Date
}

/** The checkout an attempt belongs to. */
export function checkoutOf(a: Pick<FunnelAttempt, "cart_id" | "payment_collection_id" | "session_id">): string {
  return a.cart_id ?? a.payment_collection_id ?? a.session_id
}

export function outcomeOf(a: FunnelAttempt, now: Date): Outcome {
  switch (a.state) {
    case "paid": {
      if (a.order_id) return "placed"
      if (a.superseded_by || a.session_gone_at) return "paid_without_order"
      return now.getTime() - paidAtOf(a).getTime() < PLACING_GRACE_MS ? "placing" : "paid_without_order"
    }
    case "declined":
    case "never_started":
      return "declined"
    case "expired":
      return "expired"
    case "starting":
    case "open":
      if (a.superseded_by || a.session_gone_at) return "abandoned"
      if (a.expires_at && now.getTime() >= a.expires_at.getTime() + EXPIRY_GRACE_MS) return "expired"
      return "open"
  }
}

/**
 * A checkout's outcome from its attempts' outcomes: paid if any attempt was (placed before placing
 * before paid without order: one order settles the checkout, a second payment is the attempt
 * figures' business); otherwise its latest attempt's outcome. Two attempts created at the same
 * instant (which one checkout's sequential starts never are) are ordered by their outcome, the one
 * later in OUTCOMES counting as the latest: the SQL finds the latest with one integer key per
 * attempt (creation, then outcome) so that a period's checkouts take one hash aggregate.
 */
export function checkoutOutcomeOf(attempts: Array<{ outcome: Outcome; created_at: Date }>): Outcome {
  for (const o of ["placed", "placing", "paid_without_order"] as const) if (attempts.some((a) => a.outcome === o)) return o
  let latest: { outcome: Outcome; created_at: Date } | null = null
  for (const a of attempts) {
    const t = a.created_at.getTime() - (latest?.created_at.getTime() ?? -Infinity)
    if (t > 0 || (t === 0 && OUTCOMES.indexOf(a.outcome) > OUTCOMES.indexOf(latest!.outcome))) latest = a
  }
  return latest ? latest.outcome : "open"
}

const byCreation = (a: { created_at: Date; paylater_order_id: string }, b: { created_at: Date; paylater_order_id: string }) =>
  a.created_at.getTime() - b.created_at.getTime() || (a.paylater_order_id < b.paylater_order_id ? -1 : a.paylater_order_id > b.paylater_order_id ? 1 : 0)

export interface Counts {
  started: number
  paid: number
  placed: number
  placing: number
  paid_without_order: number
  declined: number
  expired: number
  abandoned: number
  open: number
}

export const emptyCounts = (): Counts => ({ started: 0, paid: 0, placed: 0, placing: 0, paid_without_order: 0, declined: 0, expired: 0, abandoned: 0, open: 0 })

export function addOutcome(counts: Counts, outcome: Outcome, n = 1): void {
  counts.started += n
  counts[outcome] += n
  if (isPaidOutcome(outcome)) counts.paid += n
}

/** paid / started, to four decimals (a ratio, not money); null when nothing started. */
export function conversion(c: Pick<Counts, "paid" | "started">): number | null {
  return c.started ? Math.round((c.paid / c.started) * 10_000) / 10_000 : null
}

/** Percentage points between two conversions, one decimal; null when either is unknown. */
export function conversionChange(now: number | null, before: number | null): number | null {
  return now === null || before === null ? null : Math.round((now - before) * 1000) / 10
}

/** Nearest rank: always a value that was measured (PostgreSQL's percentile_disc). */
export function nearestRank(values: number[], p: number): number | null {
  if (!values.length) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1]
}

export const METHODS = ["link", "request_to_pay", "point_of_sale"] as const
export type MethodKey = (typeof METHODS)[number] | "total"

export interface MethodFunnel {
  checkouts: Counts
  attempts: Counts
  conversion: { checkouts: number | null; attempts: number | null }
  previous_conversion: { checkouts: number | null; attempts: number | null }
  /** Percentage points against the previous period of the same length. */
  conversion_change: { checkouts: number | null; attempts: number | null }
  /** Seconds from the attempt's creation to PayLater's paid, over the period's paid attempts. */
  time_to_pay: { median_s: number | null; p90_s: number | null }
  /** Payments PayLater said paid in the period (the finance report's rows), and their refunds by the period's end. */
  money: MoneyTotals
  /** Refunds sent in the period, whatever period their payment was in. */
  refunds: { count: number; amount: string }
}

export interface MoneyTotals {
  payments: number
  paid: string
  refunded: string
  net: string
}

export interface FunnelReport {
  currency_code: "qar"
  methods: Record<MethodKey, MethodFunnel>
  request_to_pay: {
    pushes_sent: number
    approved: number
    declined: number
    expired: number
    abandoned: number
    open: number
    /**
     * Requests to Pay of the period refused before a push (LOOKUP_REFUSAL_CODES); not in pushes_sent.
     * Attempts carry only the provider's refusals; the report from SQL adds the store route's, which
     * make no attempt (lookup-tally.ts), so computeFunnel's count is over the attempts alone.
     */
    lookup_refusals: number
  }
  errors: Array<{ code: string; count: number }>
  daily: Array<{ date: string; paid: string; payments: number; started: number; converted: number; conversion: number | null }>
}

const minor = (amount: string) => parseMinorUnits(toTwoDecimals(amount))
const inRange = (at: Date | null, p: Pick<Period, "from" | "to">) => !!at && at >= p.from && at < p.to

/**
 * When PayLater said paid (the finance report's "paid at", the money's date, the end of the time to
 * pay): `paid_at`, never the last status time, which moves each time PayLater is asked again.
 * Every paid row has it (the ledger writes it, Migration20261126220000 filled the older ones).
 */
export const paidAtOf = (a: Pick<FunnelAttempt, "paid_at" | "created_at">): Date => a.paid_at ?? a.created_at

/**
 * The whole report over a set of ledger rows (any superset of what the periods need: rows outside
 * them are ignored) and the refund attempts of those rows.
 */
export function computeFunnel(input: {
  attempts: FunnelAttempt[]
  refunds: FunnelRefund[]
  period: Period
  previous: Period
  now: Date
}): FunnelReport {
  const { attempts, refunds, period, previous, now } = input
  const keys: MethodKey[] = [...METHODS, "total"]
  const methods = {} as Record<MethodKey, MethodFunnel>
  const kindOf = new Map(attempts.map((a) => [a.paylater_order_id, a.kind]))
  const moneyRefunds = refunds.filter((r) => (MONEY_REFUND_STATUSES as readonly string[]).includes(r.status))

  const cohortCounts = (p: Period, key: MethodKey) => {
    const rows = attempts.filter((a) => inRange(a.created_at, p) && (key === "total" || a.kind === key))
    const attemptCounts = emptyCounts()
    const groups = new Map<string, Array<{ outcome: Outcome; created_at: Date; paylater_order_id: string }>>()
    for (const a of rows) {
      const outcome = outcomeOf(a, now)
      addOutcome(attemptCounts, outcome)
      const k = checkoutOf(a)
      groups.set(k, [...(groups.get(k) ?? []), { outcome, created_at: a.created_at, paylater_order_id: a.paylater_order_id }])
    }
    const checkoutCounts = emptyCounts()
    for (const g of groups.values()) addOutcome(checkoutCounts, checkoutOutcomeOf(g))
    return { rows, attempts: attemptCounts, checkouts: checkoutCounts }
  }

  for (const key of keys) {
    const current = cohortCounts(period, key)
    const before = cohortCounts(previous, key)
    const seconds = current.rows
      .filter((a) => a.state === "paid")
      .map((a) => Math.round((paidAtOf(a).getTime() - a.created_at.getTime()) / 1000))
    const paidRows = attempts.filter((a) => a.state === "paid" && inRange(paidAtOf(a), period) && (key === "total" || a.kind === key))
    const paid = paidRows.reduce((s, a) => s + minor(a.amount), 0n)
    const paidIds = new Set(paidRows.map((a) => a.paylater_order_id))
    const refunded = moneyRefunds
      .filter((r) => paidIds.has(r.paylater_order_id) && r.sent_at < period.to)
      .reduce((s, r) => s + minor(r.amount), 0n)
    const periodRefunds = moneyRefunds.filter((r) => inRange(r.sent_at, period) && (key === "total" || kindOf.get(r.paylater_order_id) === key))
    const conv = { checkouts: conversion(current.checkouts), attempts: conversion(current.attempts) }
    const prev = { checkouts: conversion(before.checkouts), attempts: conversion(before.attempts) }
    methods[key] = {
      checkouts: current.checkouts,
      attempts: current.attempts,
      conversion: conv,
      previous_conversion: prev,
      conversion_change: { checkouts: conversionChange(conv.checkouts, prev.checkouts), attempts: conversionChange(conv.attempts, prev.attempts) },
      time_to_pay: { median_s: nearestRank(seconds, 0.5), p90_s: nearestRank(seconds, 0.9) },
      money: { payments: paidRows.length, paid: formatMinorUnits(paid), refunded: formatMinorUnits(refunded), net: formatMinorUnits(paid - refunded) },
      refunds: { count: periodRefunds.length, amount: formatMinorUnits(periodRefunds.reduce((s, r) => s + minor(r.amount), 0n)) },
    }
  }

  const cohort = attempts.filter((a) => inRange(a.created_at, period))
  const rtp = cohort.filter((a) => a.kind === "request_to_pay" && a.state !== "never_started").map((a) => outcomeOf(a, now))
  const lookupRefusals = cohort.filter((a) => a.kind === "request_to_pay" && isLookupRefusal(a.start_error)).length
  const errorCounts = new Map<string, number>()
  for (const a of cohort) if (a.start_error) errorCounts.set(a.start_error, (errorCounts.get(a.start_error) ?? 0) + 1)

  // Daily: a checkout counts on the day of its first attempt in the period; money on its paid day.
  const firstOf = new Map<string, FunnelAttempt[]>()
  for (const a of cohort) firstOf.set(checkoutOf(a), [...(firstOf.get(checkoutOf(a)) ?? []), a])
  const daily = new Map(daysOf(period).map((d) => [d, { date: d, paid: 0n, payments: 0, started: 0, converted: 0 }]))
  for (const group of firstOf.values()) {
    const first = [...group].sort(byCreation)[0]
    const day = daily.get(dayOf(first.created_at, period.time_zone))
    if (!day) continue
    day.started += 1
    if (isPaidOutcome(checkoutOutcomeOf(group.map((a) => ({ outcome: outcomeOf(a, now), created_at: a.created_at, paylater_order_id: a.paylater_order_id }))))) day.converted += 1
  }
  for (const a of attempts) {
    if (a.state !== "paid" || !inRange(paidAtOf(a), period)) continue
    const day = daily.get(dayOf(paidAtOf(a), period.time_zone))
    if (!day) continue
    day.paid += minor(a.amount)
    day.payments += 1
  }
  return {
    currency_code: "qar",
    methods,
    request_to_pay: {
      pushes_sent: rtp.length,
      approved: rtp.filter(isPaidOutcome).length,
      declined: rtp.filter((o) => o === "declined").length,
      expired: rtp.filter((o) => o === "expired").length,
      abandoned: rtp.filter((o) => o === "abandoned").length,
      open: rtp.filter((o) => o === "open").length,
      lookup_refusals: lookupRefusals,
    },
    errors: [...errorCounts]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1))
      .slice(0, ERROR_CODES_SHOWN),
    daily: [...daily.values()].map((d) => ({
      date: d.date,
      paid: formatMinorUnits(d.paid),
      payments: d.payments,
      started: d.started,
      converted: d.converted,
      conversion: conversion({ paid: d.converted, started: d.started }),
    })),
  }
}

export const PAYMENT_STATUSES = ["placed", "placing", "paid_without_order", "partially_refunded", "refunded"] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/**
 * A payment's status in the finance report: refunded (in full) or partially refunded by the
 * period's end, else its outcome (placed, placing, paid without an order).
 */
export function paymentStatusOf(outcome: Outcome, amount: string, refunded: string): PaymentStatus {
  const r = minor(refunded)
  if (r > 0n) return r >= minor(amount) ? "refunded" : "partially_refunded"
  return outcome === "placing" || outcome === "paid_without_order" ? outcome : "placed"
}

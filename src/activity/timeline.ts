import { storedAmountText } from "../providers/paylater/money"
import type { PayLaterEventRecord } from "../modules/paylater-ledger/types"
import { viewOfSession } from "../settlement/attempt-view"
import { describeEvent, type ActivityTone } from "./events"
import { holdsMoneyOf, orderAttempts, type AftercareFacts, type LedgerRow, type OrderAttempt } from "./order-attempts"
import { lastStatusOf, maskedNumberOf } from "./attempt-facts"
import { computeRefundWindow, type RefundWindow } from "./refund-window"

/**
 * Builds what the admin order widget shows from Medusa's own records (sessions, payments, captures,
 * refunds), the attempt ledger (what PayLater was asked and answered, whose money it is) and the
 * activity log (returns, webhooks, checks). Session data is never read: the storefront writes into it.
 * Pure: no container, `now` passed in.
 */

export interface ActivitySession {
  id: string
  provider_id: string
  status: string
  created_at: string | Date
  amount: string
  currency_code: string
  payment_collection_id: string
  /** The session's current attempt in the ledger; null when PayLater was never asked to create one. */
  attempt?: LedgerRow | null
}

export interface ActivityPayment {
  id: string
  session_id: string | null
  amount: string
  currency_code: string
  captured_at: string | Date | null
  canceled_at: string | Date | null
  captures: Array<{ id: string; created_at: string | Date; amount: string }>
  refunds: Array<{ id: string; created_at: string | Date; amount: string; note: string | null }>
}

export interface ActivityFacts {
  order_id: string
  /** PayLater sessions on the order's payment collections (replaced ones are gone from Medusa). */
  sessions: ActivitySession[]
  payments: ActivityPayment[]
  events: PayLaterEventRecord[]
  /** The ledger's rows for the order: its payment collections' attempts, replaced ones included. */
  ledger: LedgerRow[]
  /** The ledger's refunds and Settings → PayLater items of those attempts. */
  aftercare?: AftercareFacts
}

export type ActivityKind =
  | "link_created"
  | "request_sent"
  | "shopper_returned"
  | "webhook_verified"
  | "status_checked"
  | "captured"
  | "refunded"
  | "expired"

export interface ActivityEntry {
  at: string
  kind: ActivityKind
  title: string
  status: string | null
  tone: ActivityTone
  detail: string | null
  session_id: string
  /** Identical repeats folded into this entry (duplicate webhooks, reloads, polls). */
  repeat_count: number
  last_at: string | null
}

export type PayLaterMethod = "payment_link" | "request_to_pay"

export type ActivityState =
  | "waiting"
  | "processing"
  | "paid"
  | "partially_refunded"
  | "refunded"
  | "declined"
  | "expired"

export interface ActivitySummary {
  session_id: string
  paylater_order_id: string | null
  /** PayLater's own reference (payLaterOrderId), known once PayLater reported the payment. */
  reference: string | null
  method: PayLaterMethod
  state: ActivityState
  amount: string
  currency_code: string
  expires_at: string | null
  mobile_number_masked: string | null
  captured_amount: string
  refunded_amount: string
  /** What PayLater said last time anyone asked, and when. */
  paylater_status: string | null
  paylater_checked_at: string | null
  failure_reason: string | null
  refund_window: RefundWindow | null
}

export interface OrderActivity {
  order_id: string
  /** Null when the order has no PayLater payment: the widget hides itself. */
  paylater: ActivitySummary | null
  /** Oldest first. */
  history: ActivityEntry[]
  /** Every PayLater attempt of the order (order-attempts.ts): the one holding its money first. */
  attempts: OrderAttempt[]
}

export const RTP_PROVIDER = /^pp_paylater-rtp_/

const KIND_ORDER: ActivityKind[] = [
  "link_created",
  "request_sent",
  "shopper_returned",
  "webhook_verified",
  "status_checked",
  "captured",
  "refunded",
  "expired",
]

function iso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

function cents(amount: string): number {
  const [whole, fraction = ""] = amount.split(".")
  return Number(whole) * 100 + Number((fraction + "00").slice(0, 2))
}

function sum(amounts: string[]): string {
  const total = amounts.reduce((n, a) => n + cents(a), 0)
  return `${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`
}

function methodOf(providerId: string): PayLaterMethod {
  return RTP_PROVIDER.test(providerId) ? "request_to_pay" : "payment_link"
}

/**
 * The session the summary describes: the one whose attempt the ledger records as holding the
 * order's money; failing that (an order no settlement has seen yet) the one Medusa holds a payment
 * of; else the newest.
 */
function currentSession(facts: ActivityFacts): ActivitySession | null {
  const owner = facts.ledger.find((row) => holdsMoneyOf(row, facts.order_id))
  const paid = new Set(facts.payments.filter((p) => !p.canceled_at && p.session_id).map((p) => p.session_id))
  const byAge = [...facts.sessions].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())
  return (owner && byAge.find((s) => s.id === owner.session_id)) ?? byAge.find((s) => paid.has(s.id)) ?? byAge[0] ?? null
}

/** The earliest moment this store knew of the payment: never before PayLater's own payment time. */
export function paidAtOf(
  payment: ActivityPayment | undefined,
  events: Array<Pick<PayLaterEventRecord, "session_id" | "status" | "occurred_at">>,
  sessionId: string
): Date | null {
  const candidates: number[] = []
  if (payment?.captured_at) candidates.push(new Date(payment.captured_at).getTime())
  for (const c of payment?.captures ?? []) candidates.push(new Date(c.created_at).getTime())
  for (const e of events) {
    if (e.session_id === sessionId && e.status === "success") candidates.push(new Date(e.occurred_at).getTime())
  }
  const valid = candidates.filter((t) => Number.isFinite(t))
  return valid.length ? new Date(Math.min(...valid)) : null
}

function summarize(facts: ActivityFacts, session: ActivitySession, now: Date): ActivitySummary {
  const payment = facts.payments.find((p) => p.session_id === session.id && !p.canceled_at)
  const captured = sum((payment?.captures ?? []).map((c) => c.amount))
  const refunded = sum((payment?.refunds ?? []).map((r) => r.amount))
  // The attempt described: the session's one holding this order's money, else its current one.
  const row =
    facts.ledger.find((r) => r.session_id === session.id && holdsMoneyOf(r, facts.order_id)) ?? session.attempt ?? null
  const decided = viewOfSession({ session_status: session.status, attempt: row, order_id: facts.order_id }, now)
  let state: ActivityState = decided.status === "paid_not_placed" ? "processing" : decided.status
  if (payment && cents(captured) > 0) {
    state = cents(refunded) === 0 ? "paid" : cents(refunded) >= cents(captured) ? "refunded" : "partially_refunded"
  }
  const paidAt = payment && cents(captured) > 0 ? paidAtOf(payment, facts.events, session.id) : null
  return {
    session_id: session.id,
    paylater_order_id: row?.paylater_order_id ?? null,
    reference: row?.paylater_ref ?? null,
    method: methodOf(session.provider_id),
    state,
    amount: row ? storedAmountText(row) : session.amount,
    currency_code: session.currency_code,
    expires_at: row?.expires_at ? new Date(row.expires_at).toISOString() : null,
    mobile_number_masked: maskedNumberOf(row),
    captured_amount: captured,
    refunded_amount: refunded,
    paylater_status: lastStatusOf(row),
    paylater_checked_at: row?.last_status_at ? new Date(row.last_status_at).toISOString() : null,
    // The card's own verdict (the ledger row's state through the one state decider), so the two agree.
    failure_reason: state === "declined" || state === "expired" ? state : null,
    refund_window: computeRefundWindow({ paid_at: paidAt, captured_amount: captured, refunded_amount: refunded, now }),
  }
}

function sessionEntries(facts: ActivityFacts, session: ActivitySession, now: Date): ActivityEntry[] {
  const row = session.attempt ?? null
  const rtp = methodOf(session.provider_id) === "request_to_pay"
  const amount = row ? storedAmountText(row) : session.amount
  const masked = maskedNumberOf(row)
  const entries: ActivityEntry[] = [
    {
      at: iso(session.created_at),
      kind: rtp ? "request_sent" : "link_created",
      title: rtp ? "Request to Pay sent to the shopper's PayLater app" : "Payment link created",
      status: null,
      tone: "grey",
      detail: [
        `${amount} ${session.currency_code.toUpperCase()}`,
        masked ? `to ${masked}` : null,
        row ? `PayLater order ${row.paylater_order_id}` : null,
      ]
        .filter(Boolean)
        .join(", "),
      session_id: session.id,
      repeat_count: 0,
      last_at: null,
    },
  ]
  const state = viewOfSession({ session_status: session.status, attempt: row, order_id: facts.order_id }, now)
  const expiresAt = row?.expires_at ?? null
  if (state.status === "expired" && expiresAt) {
    entries.push({
      at: iso(expiresAt),
      kind: "expired",
      title: rtp ? "Request expired unpaid" : "Link expired unpaid",
      status: "expired",
      tone: "grey",
      detail: null,
      session_id: session.id,
      repeat_count: 0,
      last_at: null,
    })
  }
  return entries
}

function paymentEntries(payment: ActivityPayment): ActivityEntry[] {
  const sessionId = payment.session_id ?? ""
  const currency = payment.currency_code.toUpperCase()
  return [
    ...payment.captures.map<ActivityEntry>((c) => ({
      at: iso(c.created_at),
      kind: "captured",
      title: "Payment captured",
      status: "captured",
      tone: "green",
      detail: `${c.amount} ${currency} (PayLater settles with the store; no capture call is needed)`,
      session_id: sessionId,
      repeat_count: 0,
      last_at: null,
    })),
    ...payment.refunds.map<ActivityEntry>((r) => ({
      at: iso(r.created_at),
      kind: "refunded",
      title: `Refunded ${r.amount} ${currency}`,
      status: "refunded",
      tone: "blue",
      detail: r.note ? r.note.slice(0, 200) : null,
      session_id: sessionId,
      repeat_count: 0,
      last_at: null,
    })),
  ]
}

function eventEntry(event: PayLaterEventRecord): ActivityEntry {
  const described = describeEvent(event)
  return {
    at: iso(event.occurred_at),
    kind: event.kind,
    title: described.title,
    status: event.status,
    tone: described.tone,
    detail: described.detail,
    session_id: event.session_id,
    repeat_count: event.repeat_count ?? 0,
    last_at: event.last_occurred_at ? iso(event.last_occurred_at) : null,
  }
}

export function buildOrderActivity(facts: ActivityFacts, now: Date): OrderActivity {
  const current = currentSession(facts)
  const history = [
    ...facts.sessions.flatMap((s) => sessionEntries(facts, s, now)),
    ...facts.events.map(eventEntry),
    ...facts.payments.flatMap(paymentEntries),
  ].sort((a, b) => {
    const byTime = new Date(a.at).getTime() - new Date(b.at).getTime()
    return byTime !== 0 ? byTime : KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)
  })
  return {
    order_id: facts.order_id,
    paylater: current ? summarize(facts, current, now) : null,
    history,
    attempts: orderAttempts(facts.ledger, facts.order_id, now, facts.aftercare),
  }
}

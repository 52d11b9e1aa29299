import { holdsOrderMoney, viewOf, type AttemptKind } from "../modules/paylater-ledger/attempt-state"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { storedAmountText } from "../providers/paylater/money"
import { aftercareOf, type Aftercare, type ListingRow, type RefundRow } from "./attempt-aftercare"

/**
 * The order card's list of PayLater attempts, from the ledger: the attempt whose money the order
 * holds first (the one to look at for refunds), then every other attempt of the order's payment
 * collections, newest first, each with what became of it. Pure: rows in, `now` passed in.
 */

export type LedgerRow = Pick<
  AttemptRecord,
  | "paylater_order_id"
  | "kind"
  | "session_id"
  | "state"
  | "order_id"
  | "payment_id"
  | "amount"
  | "raw_amount"
  | "currency_code"
  | "expires_at"
  | "paylater_ref"
  | "superseded_by"
  | "created_at"
  | "last_status_code"
  | "last_status_at"
  | "detail"
>

export type AttemptOutcome =
  /** Paid, and recorded as this order's payment (`holdsOrderMoney`). */
  | "holds_order_money"
  /** Paid, but not recorded as this order's payment: another order's, or paid without an order. */
  | "paid_elsewhere"
  | "waiting"
  | "declined"
  | "expired"
  /** PayLater refused to create it: nothing could be paid. */
  | "not_started"

export interface OrderAttempt {
  paylater_order_id: string
  kind: AttemptKind
  session_id: string
  outcome: AttemptOutcome
  amount: string
  currency_code: string
  created_at: string | null
  /** PayLater's own reference, once it reported the payment. */
  reference: string | null
  /** The order that holds this attempt's money, when one does (possibly not this one). */
  order_id: string | null
  /** The attempt that replaced it, if any. */
  superseded_by: string | null
  /** Its refund, once PayLater confirmed one (amount, when, by the rule or by whom). */
  refund: Aftercare["refund"]
  /** Its item on Settings → PayLater, open or resolved. */
  listing: Aftercare["listing"]
}

/** The ledger's records of what happened after payment: refunds and Settings → PayLater's items. */
export interface AftercareFacts {
  refunds: RefundRow[]
  listings: ListingRow[]
  /** Admin users by id (their email), to say who refunded. */
  actors?: ReadonlyMap<string, string>
}

/** The row holds this order's money (not merely some order's). */
export function holdsMoneyOf(row: LedgerRow, orderId: string): boolean {
  return holdsOrderMoney(row) && row.order_id === orderId
}

function outcomeOf(row: LedgerRow, orderId: string, now: Date): AttemptOutcome {
  if (holdsMoneyOf(row, orderId)) return "holds_order_money"
  if (row.state === "paid") return "paid_elsewhere"
  if (row.state === "never_started") return "not_started"
  // The screens' rule: an open attempt past its expiry (plus grace) is shown as expired.
  const view = viewOf({ state: row.state, expires_at: row.expires_at, order_id: null }, now)
  return view.status === "declined" || view.status === "expired" ? view.status : "waiting"
}

const time = (at: string | Date | null | undefined): number => {
  const t = at ? new Date(at).getTime() : NaN
  return Number.isNaN(t) ? 0 : t
}

export function orderAttempts(
  rows: LedgerRow[],
  orderId: string,
  now: Date,
  after: AftercareFacts = { refunds: [], listings: [] }
): OrderAttempt[] {
  return rows
    .map((row) => ({ row, outcome: outcomeOf(row, orderId, now) }))
    .sort((a, b) => {
      const owner = Number(b.outcome === "holds_order_money") - Number(a.outcome === "holds_order_money")
      if (owner !== 0) return owner
      const newer = time(b.row.created_at) - time(a.row.created_at)
      return newer !== 0 ? newer : b.row.paylater_order_id.localeCompare(a.row.paylater_order_id)
    })
    .map(({ row, outcome }) => ({
      paylater_order_id: row.paylater_order_id,
      kind: row.kind,
      session_id: row.session_id,
      outcome,
      amount: storedAmountText(row),
      currency_code: row.currency_code,
      created_at: row.created_at ? new Date(row.created_at).toISOString() : null,
      reference: row.paylater_ref ?? null,
      order_id: row.order_id ?? null,
      superseded_by: row.superseded_by ?? null,
      ...aftercareOf(row.paylater_order_id, after.refunds, after.listings, after.actors),
    }))
}

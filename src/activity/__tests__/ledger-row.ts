import type { LedgerRow } from "../order-attempts"

/** The order card tests' clock: T0 and `t(seconds)` after it, as ISO text. */
export const T0 = Date.parse("2026-03-01T10:00:00.000Z")
export const t = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()

/** A ledger row as the order card reads it: an open 360 QAR link attempt unless told otherwise. */
export function ledgerRow(paylaterOrderId: string, over: Partial<LedgerRow> = {}): LedgerRow {
  return {
    paylater_order_id: paylaterOrderId,
    kind: "link",
    session_id: paylaterOrderId.replace(/-\d+$/, ""),
    state: "open",
    order_id: null,
    payment_id: null,
    amount: 360,
    raw_amount: { value: "360", precision: 20 },
    currency_code: "qar",
    expires_at: t(3600),
    paylater_ref: null,
    superseded_by: null,
    created_at: t(0),
    last_status_code: null,
    last_status_at: null,
    detail: null,
    ...over,
  }
}

/**
 * What the provider keeps in a payment session's / payment's `data`. Storefronts can read session
 * data, so everything here is public by design: ids, the hosted link, amounts, PayLater's reference.
 * No state anything reads (the attempt's ledger row holds what PayLater said), and no token, secret
 * or full mobile number is ever written.
 */

export interface PayLaterSessionData {
  session_id?: string
  /** The id PayLater knows the payment by: the session id, suffixed "-N" on later attempts. */
  paylater_order_id?: string
  /** 1 for the bare session id, N for "<session_id>-N": the next attempt uses N + 1. */
  paylater_attempt?: number
  payment_link_url?: string
  /** When the link or request stops being payable (ISO instant). */
  expires_at?: string
  /** Request to Pay: PayLater's `expiry_date` exactly as received (no zone); null when derived by us. */
  paylater_expiry_date_raw?: string | null
  paylater_expiry_minutes?: number
  /** Request to Pay: "974*****021". The full number is never stored. */
  mobile_number_masked?: string
  /** Two-decimal text in QAR, what PayLater was asked to collect. */
  amount?: string
  currency?: "QAR"
  /** PayLater's own reference (payLaterOrderId), shown on the payment once paid. */
  paylater_ref?: string
  paylater_refunded_amount?: string
  paylater_refunds?: Array<{ amount: string; full: boolean; at: string }>
  [key: string]: unknown
}

const SUFFIX = /-(\d+)$/

/** "payses_1-2" → "payses_1". Medusa session ids never end in "-<digits>", so this is unambiguous. */
export function sessionIdFromOrderId(orderId: string): string {
  return orderId.replace(SUFFIX, "")
}

export function orderIdForAttempt(sessionId: string, attempt: number): string {
  return attempt <= 1 ? sessionId : `${sessionId}-${attempt}`
}

export function text(data: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = data?.[key]
  return typeof value === "string" && value.length > 0 ? value : undefined
}

import { paymentStateOf, type PaymentState } from "../lib/paylater"

/**
 * What the screens and the activity log show of an attempt, read from its ledger row: never from
 * the session's data, which the storefront can write into.
 */
type AttemptFactsRow = { detail?: Record<string, unknown> | null; last_status_code?: number | null } | null | undefined

/** The masked mobile number a Request to Pay was sent to, as recorded when PayLater accepted it. */
export function maskedNumberOf(row: AttemptFactsRow): string | null {
  const masked = row?.detail?.mobile_number_masked
  return typeof masked === "string" ? masked : null
}

/** PayLater's last word on the attempt, in words; null when PayLater was never asked or never said. */
export function lastStatusOf(row: AttemptFactsRow): PaymentState | null {
  const code = row?.last_status_code
  return code === 0 || code === 1 || code === 2 || code === 3 ? paymentStateOf(code) : null
}

/** The masked mobile number a Request to Pay was sent to, as the ledger recorded it when PayLater accepted it. */
export function maskedNumberOf(row: { detail?: Record<string, unknown> | null } | null | undefined): string | null {
  const masked = row?.detail?.mobile_number_masked
  return typeof masked === "string" ? masked : null
}

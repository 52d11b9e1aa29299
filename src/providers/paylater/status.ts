import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentStatus } from "../../lib/paylater"
import type { AttemptState } from "../../modules/paylater-ledger/attempt-state"
import type { PayLaterSessionData } from "./session-data"

/**
 * PayLater's answer translated for Medusa; what it means for the attempt is decided in one place
 * (modules/paylater-ledger/attempt-state.ts), and only repeated here.
 *
 * 2 success → `captured`: PayLater collects from the shopper and settles with the merchant; there is
 * no capture call, so Medusa records the capture itself when the payment is created.
 * 1 pending / 0 not initiated → `pending`: cart completion refuses to place an order yet, so an
 * order only ever exists for money PayLater confirmed.
 * 3 failed → `error`: the session cannot complete any more; the storefront starts a new one.
 */
export function sessionStatusFor(status: PaymentStatus): PaymentSessionStatus {
  switch (status.code) {
    case 2:
      return PaymentSessionStatus.CAPTURED
    case 3:
      return PaymentSessionStatus.ERROR
    default:
      return PaymentSessionStatus.PENDING
  }
}

/** The public view of what PayLater said, with the ledger's verdict on a failure (declined or expired). */
export function statusDataFor(status: PaymentStatus, state: AttemptState | null, now: Date = new Date()): Partial<PayLaterSessionData> {
  const patch: Partial<PayLaterSessionData> = {
    paylater_status: status.state,
    paylater_status_code: status.code,
    paylater_status_message: status.message,
    paylater_status_checked_at: now.toISOString(),
  }
  if (status.payLaterOrderId) {
    patch.paylater_ref = status.payLaterOrderId
  }
  if (status.code === 3) {
    patch.paylater_failure_reason = state === "expired" ? "expired" : "declined"
  }
  return patch
}

import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentStatus } from "../../lib/paylater"
import type { PayLaterFailureReason, PayLaterSessionData } from "./session-data"

/**
 * PayLater status → Medusa session status.
 *
 * 2 success → `captured`: PayLater collects from the shopper and settles with the merchant; there is
 * no capture call, so Medusa records the capture itself when the payment is created.
 * 1 pending / 0 not initiated → `pending`: cart completion refuses to place an order yet, so an
 * order only ever exists for money PayLater confirmed (a `pending_authorization` order could end
 * up unpaid).
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

/**
 * The status operation only says "failed", not why. A failure after the link's validity is read as
 * expiry; anything else as a decline.
 */
export function failureReasonFor(status: PaymentStatus, expiresAt: string | undefined, now: Date): PayLaterFailureReason {
  const text = status.message.toLowerCase()
  if (text.includes("expire")) {
    return "expired"
  }
  if (expiresAt && !Number.isNaN(Date.parse(expiresAt)) && now.getTime() >= Date.parse(expiresAt)) {
    return "expired"
  }
  return "declined"
}

/** The part of session data that records what PayLater said, merged over the existing data. */
export function statusDataFor(
  status: PaymentStatus,
  previous: PayLaterSessionData,
  now: Date
): Partial<PayLaterSessionData> {
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
    patch.paylater_failure_reason = failureReasonFor(status, previous.expires_at, now)
  }
  return patch
}

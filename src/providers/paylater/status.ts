import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentStatus } from "../../lib/paylater"
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

/**
 * Status copies older versions wrote into session data. What PayLater said and why a payment failed
 * live in the attempt's ledger row, which every screen and the store's status route read; nothing
 * read these copies, and a copy in data the storefront can write to invites reading it. Removed from
 * data written before, too.
 */
const STATUS_COPIES = ["paylater_status", "paylater_status_code", "paylater_status_message", "paylater_status_checked_at", "paylater_failure_reason"]

/**
 * What session and payment data keep of PayLater's answer: only PayLater's own reference, which a
 * storefront shows on the order (the demo's confirmation page reads it from the payment).
 */
export function statusDataFor(status: PaymentStatus): Partial<PayLaterSessionData> {
  const cleared: Partial<PayLaterSessionData> = Object.fromEntries(STATUS_COPIES.map((key) => [key, undefined]))
  return status.payLaterOrderId ? { ...cleared, paylater_ref: status.payLaterOrderId } : cleared
}

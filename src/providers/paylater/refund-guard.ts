import { MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { isPayLaterError, logRef, type PayLaterApi, type PayLaterErrorCode } from "../../lib/paylater"
import type { RefundLedgerPort } from "../../modules/paylater-ledger/ledger-port"
import { toMedusaError } from "./errors"
import { crashPoint } from "../../faults/crash-point"
import { addAmounts } from "./money"
import type { PayLaterSessionData } from "./session-data"

/**
 * The refund guard. PayLater publishes no refund status and no refund idempotency, and Medusa
 * deletes its refund record when the provider throws (payment module, refundPayment): after a
 * timeout nothing in Medusa remembers that money may have left. So every refund is written to the
 * plugin's own table BEFORE it is sent (beginRefund, which refuses while an earlier refund of the
 * payment is in flight or of unknown outcome, or when the running total would pass what was paid),
 * and its answer is written after. An unknown answer puts the payment on Settings → PayLater, and
 * refunds of it stay refused (NOT_ALLOWED) until an operator records what PayLater did.
 */

export type RefundLedger = RefundLedgerPort

/*
 * A refund an operator confirmed (PayLater paid it out, its answer was lost) is recorded on the order
 * through Medusa's refund workflow; the ledger knows it is a booking (requestBooking, just before),
 * so this guard only books it and sends nothing. No Medusa record is read here.
 */

/** Metadata key on a Medusa refund record that only books an operator-confirmed refund. */
export const BOOKING_METADATA_KEY = "paylater_confirmed_refund_attempt_id"

/** No answer we can read: PayLater may or may not have paid the refund out. */
const UNKNOWN_OUTCOME: ReadonlySet<PayLaterErrorCode> = new Set<PayLaterErrorCode>([
  "TIMEOUT",
  "NETWORK",
  "SERVER_ERROR",
  "UPSTREAM_UNAVAILABLE",
  "UNEXPECTED_RESPONSE",
])

export function refundOutcomeIsUnknown(error: unknown): boolean {
  return !isPayLaterError(error) || UNKNOWN_OUTCOME.has(error.code)
}

export interface GuardedRefundInput {
  api: PayLaterApi
  logger: Logger | Console
  ledger: RefundLedger
  data: PayLaterSessionData
  orderId: string
  sessionId: string | null
  /** Two-decimal QAR text, > 0. */
  amount: string
  /** Medusa's refund record id (the provider call's idempotency key). */
  medusaRefundId?: string
  /** The Medusa payment and collection the refund is for, from the attempt ledger (null when none). */
  payment?: { id: string | null; payment_collection_id: string | null }
  /** What PayLater was asked to collect, from the attempt ledger (two-decimal QAR): the refunds' ceiling. */
  capturedAmount: string
  /** When a pending attempt can no longer be in flight: sentOnceStaleAfterMs of the client's configuration. */
  staleAfterMs: number
}

/** Sends one refund under the guard and returns the payment's new data. */
export async function sendGuardedRefund(input: GuardedRefundInput): Promise<PayLaterSessionData> {
  const { api, logger, ledger, data, orderId, amount } = input
  // Logs name the payment by its short form: the order id is the session id, a key (log-ref.ts).
  const ref = logRef(orderId)
  const payment = input.payment ?? { id: null, payment_collection_id: null }
  const begun = await ledger.beginRefund({
    paylater_order_id: orderId,
    amount,
    captured_amount: input.capturedAmount,
    session_id: input.sessionId,
    payment_id: payment.id,
    payment_collection_id: payment.payment_collection_id,
    medusa_refund_id: input.medusaRefundId ?? null,
    stale_after_ms: input.staleAfterMs,
  })
  if (begun.mode === "book") {
    logger.info(`PayLater: refund of ${amount} QAR for ${ref} (confirmed by an operator) recorded on the order`)
    return withRefund(data, begun.refunded_before, amount, { full: false, confirmed: true })
  }
  try {
    await api.refund(begun.full ? { orderId } : { orderId, amount })
    crashPoint("refund:after-sent")
  } catch (error) {
    const unknown = refundOutcomeIsUnknown(error)
    const code = isPayLaterError(error) ? error.code : "UNKNOWN"
    await ledger
      .settleRefund(begun.attempt_id, {
        outcome: unknown ? "unknown" : "failed",
        error_code: code,
        error_message: error instanceof Error ? error.message.slice(0, 500) : null,
      })
      .catch((e: unknown) =>
        logger.error(
          `PayLater: refund attempt ${begun.attempt_id} for ${ref} could not be settled (${(e as Error)?.message ?? e}); it stays pending and blocks further refunds until checked`
        )
      )
    logger.warn(
      `PayLater: refund of ${amount} QAR for ${ref} ${unknown ? "has an unknown outcome" : "failed"} (${code})`
    )
    throw unknown ? unknownOutcomeError() : toMedusaError(error, "refund")
  }
  // The money has left: whatever happens to our bookkeeping now, Medusa must keep its refund record.
  await ledger.settleRefund(begun.attempt_id, { outcome: "succeeded" }).catch((e: unknown) =>
    logger.error(
      `PayLater: refund of ${amount} QAR for ${ref} was accepted but could not be recorded as such (${(e as Error)?.message ?? e}); it will show as outcome unknown on Settings → PayLater`
    )
  )
  logger.info(`PayLater: refund of ${amount} QAR for ${ref} accepted (${begun.full ? "full" : "partial"})`)
  return withRefund(data, begun.refunded_before, amount, { full: begun.full, confirmed: false })
}

function unknownOutcomeError(): MedusaError {
  const base = toMedusaError(new Error("no answer"), "refund")
  return new MedusaError(
    base.type,
    `${base.message} Further refunds of this payment are refused until you record in Settings → PayLater whether PayLater refunded it.`
  )
}

function withRefund(
  data: PayLaterSessionData,
  refundedBefore: string,
  amount: string,
  how: { full: boolean; confirmed: boolean }
): PayLaterSessionData {
  const refunds = Array.isArray(data.paylater_refunds) ? data.paylater_refunds : []
  return {
    ...data,
    paylater_refunded_amount: addAmounts(refundedBefore, amount),
    paylater_refunds: [
      ...refunds,
      { amount, full: how.full, at: new Date().toISOString(), ...(how.confirmed ? { confirmed_by_operator: true } : {}) },
    ],
  }
}

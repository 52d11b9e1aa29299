import { MedusaError } from "@medusajs/framework/utils"
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import type { Logger } from "@medusajs/framework/types"
import { isPayLaterError, logRef, type PayLaterApi, type PayLaterErrorCode } from "../../lib/paylater"
import { PAYLATER_ACTIVITY_MODULE } from "../../modules/paylater-activity"
import type { PayLaterActivityModuleService } from "../../modules/paylater-activity/service"
import { toMedusaError } from "./errors"
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

export type RefundLedger = Pick<PayLaterActivityModuleService, "beginRefund" | "settleRefund">

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

/**
 * The plugin's module, reached through Medusa's module registry: a provider lives in the payment
 * module's own container, which cannot resolve other modules.
 */
export function refundLedger(): RefundLedger {
  const services = MedusaModule.getModuleInstance(PAYLATER_ACTIVITY_MODULE) as Record<string, unknown> | undefined
  const ledger = services?.[PAYLATER_ACTIVITY_MODULE] as RefundLedger | undefined
  if (!ledger || typeof ledger.beginRefund !== "function") {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      "PayLater refunds are recorded before they are sent, and the plugin's paylater_activity module is not loaded: add medusa-payment-paylater to `plugins` in medusa-config and run `npx medusa db:migrate`. Nothing was sent to PayLater."
    )
  }
  return ledger
}

interface ListService {
  list(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<Array<Record<string, any>>>
}

function internalService(container: Record<string, unknown>, name: string): ListService | undefined {
  try {
    return container[name] as ListService | undefined
  } catch {
    // Awilix cradles throw for unregistered names.
    return undefined
  }
}

/** The Medusa payment behind a session (for the admin's links); best effort, null when unknown. */
async function paymentOf(
  container: Record<string, unknown>,
  sessionId: string | null
): Promise<{ id: string | null; payment_collection_id: string | null }> {
  const none = { id: null, payment_collection_id: null }
  const payments = internalService(container, "paymentService")
  if (!sessionId || !payments) return none
  try {
    const [row] = await payments.list(
      { payment_session_id: sessionId },
      { select: ["id", "payment_collection_id"], take: 1 }
    )
    return row ? { id: row.id, payment_collection_id: row.payment_collection_id ?? null } : none
  } catch {
    return none
  }
}

/**
 * The confirmed attempt a Medusa refund record books, when the plugin created it to do so. Fails
 * closed: when the record cannot be read, nothing is sent (it might be a booking, and sending it
 * would pay the refund out twice).
 */
async function bookingOf(container: Record<string, unknown>, medusaRefundId: string | undefined): Promise<string | null> {
  if (!medusaRefundId) return null
  const cannotTell = () =>
    new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      "PayLater: the refund record could not be read, so it is not known whether this refund was already paid out. Nothing was sent to PayLater."
    )
  const refunds = internalService(container, "refundService")
  if (!refunds) throw cannotTell()
  const [row] = await refunds.list({ id: medusaRefundId }, { select: ["id", "metadata"], take: 1 }).catch(() => {
    throw cannotTell()
  })
  const value = row?.metadata?.[BOOKING_METADATA_KEY]
  return typeof value === "string" ? value : null
}

export interface GuardedRefundInput {
  container: Record<string, unknown>
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
  /** When a pending attempt can no longer be in flight: refundStaleAfterMs of the client's configuration. */
  staleAfterMs: number
}

/** Sends one refund under the guard and returns the payment's new data. */
export async function sendGuardedRefund(input: GuardedRefundInput): Promise<PayLaterSessionData> {
  const { api, logger, ledger, data, orderId, amount } = input
  // Logs name the payment by its short form: the order id is the session id, a key (log-ref.ts).
  const ref = logRef(orderId)
  const payment = await paymentOf(input.container, input.sessionId)
  const begun = await ledger.beginRefund({
    paylater_order_id: orderId,
    amount,
    captured_amount: data.amount ?? "0",
    session_id: input.sessionId,
    payment_id: payment.id,
    payment_collection_id: payment.payment_collection_id,
    medusa_refund_id: input.medusaRefundId ?? null,
    stale_after_ms: input.staleAfterMs,
    booking_attempt_id: await bookingOf(input.container, input.medusaRefundId),
  })
  if (begun.mode === "book") {
    logger.info(`PayLater: refund of ${amount} QAR for ${ref} (confirmed by an operator) recorded on the order`)
    return withRefund(data, begun.refunded_before, amount, { full: false, confirmed: true })
  }
  try {
    await api.refund(begun.full ? { orderId } : { orderId, amount })
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

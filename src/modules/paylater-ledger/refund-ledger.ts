import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import type { BeginRefundInput, RefundAttemptStatus } from "./types"

/**
 * The refund guard's rules, without storage: given every earlier attempt on a PayLater order, may
 * this refund be sent? Exact decimal arithmetic throughout (MathBN), amounts in QAR.
 */

export interface StoredRefundAttempt {
  id: string
  status: RefundAttemptStatus
  amount: BigNumberInput
  raw_amount?: BigNumberInput | null
  sent_at: Date | string
  booked_at?: Date | string | null
  booking_requested_at?: Date | string | null
}

/** Refunds PayLater has paid out for sure: answered OK, or confirmed by an operator. */
const PAID_OUT: ReadonlySet<RefundAttemptStatus> = new Set(["succeeded", "refunded"])

const text = (amount: BigNumberInput) => MathBN.convert(amount).toFixed(2)
const amountOf = (a: StoredRefundAttempt) => a.raw_amount ?? a.amount

/** An attempt's amount as two-decimal QAR text, from its exact stored value. */
export function attemptAmount(attempt: StoredRefundAttempt): string {
  return text(amountOf(attempt))
}
const when = (at: Date | string) => new Date(at).toISOString().replace("T", " ").slice(0, 16) + " UTC"

export function refundedTotal(attempts: StoredRefundAttempt[]): string {
  return text(attempts.filter((a) => PAID_OUT.has(a.status)).reduce((sum, a) => MathBN.add(sum, amountOf(a)), MathBN.convert(0)))
}

/** Pending attempts whose call cannot still be running: the process that sent them is gone. */
export function staleAttempts(attempts: StoredRefundAttempt[], staleAfterMs: number, now: Date): StoredRefundAttempt[] {
  return attempts.filter((a) => a.status === "pending" && now.getTime() - new Date(a.sent_at).getTime() > staleAfterMs)
}

export interface RefundDecision {
  mode: "send" | "book"
  refunded_before: string
  /** The whole payment in one refund: PayLater wants it sent without an amount. */
  full: boolean
}

/** Throws NOT_ALLOWED with words for the admin when the refund must not be sent. */
export function decideRefund(attempts: StoredRefundAttempt[], input: BeginRefundInput): RefundDecision {
  const refundedBefore = refundedTotal(attempts)
  if (input.booking_attempt_id) {
    const confirmed = attempts.find((a) => a.id === input.booking_attempt_id)
    if (!confirmed || confirmed.status !== "refunded" || confirmed.booked_at || !MathBN.eq(amountOf(confirmed), input.amount)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "This confirmed PayLater refund is already recorded on the order (or does not match); nothing was sent to PayLater."
      )
    }
    return { mode: "book", refunded_before: text(MathBN.sub(refundedBefore, input.amount)), full: false }
  }
  const unknown = attempts.find((a) => a.status === "unknown")
  if (unknown) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `A refund of ${text(amountOf(unknown))} QAR for this payment was sent to PayLater at ${when(unknown.sent_at)} and its outcome is unknown (PayLater did not answer): it may have been paid out. Check the payment in the PayLater merchant portal, then record what you found in Settings → PayLater (refunded / not refunded) before refunding again.`
    )
  }
  const pending = attempts.find((a) => a.status === "pending")
  if (pending) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `A refund of ${text(amountOf(pending))} QAR for this payment is being sent to PayLater right now. Wait for its answer before refunding again.`
    )
  }
  const remaining = MathBN.sub(input.captured_amount, refundedBefore)
  if (MathBN.gt(input.amount, remaining)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `PayLater has already refunded ${refundedBefore} of ${text(input.captured_amount)} QAR for this payment; at most ${text(MathBN.max(remaining, 0))} QAR can still be refunded.`
    )
  }
  const full = MathBN.eq(refundedBefore, 0) && MathBN.eq(input.amount, input.captured_amount)
  return { mode: "send", refunded_before: refundedBefore, full }
}

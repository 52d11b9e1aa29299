import { decideRefund, staleAttempts, type StoredRefundAttempt } from "../../../modules/paylater-activity/refund-ledger"
import type { BeginRefundInput, SettleRefundInput } from "../../../modules/paylater-activity/types"
import type { RefundLedger } from "../refund-guard"

/**
 * The refund ledger's storage in memory, over the module's real rules (refund-ledger.ts), for
 * provider unit tests. The database version (advisory lock, partial unique index) is exercised by
 * integration-tests/http/paylater-refund-guard.spec.ts.
 */
export class MemoryRefundLedger implements RefundLedger {
  attempts: Array<StoredRefundAttempt & { paylater_order_id: string; error_code?: string | null }> = []
  private seq = 0

  async beginRefund(input: BeginRefundInput) {
    const mine = () => this.attempts.filter((a) => a.paylater_order_id === input.paylater_order_id)
    for (const stale of staleAttempts(mine(), input.stale_after_ms, new Date())) {
      stale.status = "unknown"
    }
    const decision = decideRefund(mine(), input)
    if (decision.mode === "book") {
      this.attempts.find((a) => a.id === input.booking_attempt_id)!.booked_at = new Date()
      return { attempt_id: input.booking_attempt_id!, ...decision }
    }
    const id = `plref_${++this.seq}`
    this.attempts.push({ id, paylater_order_id: input.paylater_order_id, status: "pending", amount: input.amount, sent_at: new Date() })
    return { attempt_id: id, ...decision }
  }

  async settleRefund(attemptId: string, input: SettleRefundInput) {
    const attempt = this.attempts.find((a) => a.id === attemptId)!
    attempt.status = input.outcome
    attempt.error_code = input.error_code ?? null
  }

  /** What an operator does on Settings → PayLater after checking PayLater's portal. */
  resolve(attemptId: string, resolution: "refunded" | "not_refunded") {
    this.attempts.find((a) => a.id === attemptId)!.status = resolution
  }
}

import { decideRefund, refundedTotal, staleAttempts, type StoredRefundAttempt } from "../../../modules/paylater-ledger/refund-ledger"
import type { BeginRefundInput, SettleRefundInput } from "../../../modules/paylater-ledger/types"
import type { RefundLedger } from "../refund-guard"
import { nextState, type AttemptEvent } from "../../../modules/paylater-ledger/attempt-state"
import type { AttemptRecord, LedgerPort, StatusReport, WriteAheadInput } from "../../../modules/paylater-ledger/ledger-port"

/**
 * The ledger's storage in memory, over the module's real rules (refund-ledger.ts for refunds,
 * attempt-state.ts for attempts), for provider unit tests. The database version (advisory lock, partial unique index) is exercised by
 * integration-tests/http/fast-timeout-app/paylater-refund-guard.ts.
 */
export class MemoryRefundLedger implements RefundLedger, LedgerPort {
  rows: AttemptRecord[] = []
  attempts: Array<
    StoredRefundAttempt & {
      paylater_order_id: string
      error_code?: string | null
      session_id?: string | null
      payment_id?: string | null
      payment_collection_id?: string | null
    }
  > = []
  private seq = 0
  /** Status-call slots taken (session id, interval): every one is free unless a test made it busy. */
  statusSlotsTaken: Array<{ sessionId: string; seconds: number }> = []
  busyStatusSlots = new Set<string>()

  async takeStatusSlot(sessionId: string, seconds: number) {
    if (this.busyStatusSlots.has(sessionId)) return false
    this.statusSlotsTaken.push({ sessionId, seconds })
    return true
  }

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
    this.attempts.push({
      id,
      paylater_order_id: input.paylater_order_id,
      session_id: input.session_id ?? null,
      payment_id: input.payment_id ?? null,
      payment_collection_id: input.payment_collection_id ?? null,
      status: "pending",
      amount: input.amount,
      sent_at: new Date(),
    })
    return { attempt_id: id, ...decision }
  }

  async settleRefund(attemptId: string, input: SettleRefundInput) {
    const attempt = this.attempts.find((a) => a.id === attemptId)!
    attempt.status = input.outcome
    attempt.error_code = input.error_code ?? null
  }

  async refundedAmount(paylaterOrderId: string) {
    return refundedTotal(this.attempts.filter((a) => a.paylater_order_id === paylaterOrderId) as StoredRefundAttempt[])
  }

  /** As the module's: refunded, or a refund sent whose answer is awaited or unknown (no list here). */
  async moneyGivenBack(paylaterOrderId: string) {
    const mine = this.attempts.filter((a) => a.paylater_order_id === paylaterOrderId)
    return Number(await this.refundedAmount(paylaterOrderId)) > 0 || mine.some((a) => a.status === "pending" || a.status === "unknown")
  }

  /** What an operator does on Settings → PayLater after checking PayLater's portal. */
  resolve(attemptId: string, resolution: "refunded" | "not_refunded") {
    this.attempts.find((a) => a.id === attemptId)!.status = resolution
  }

  async writeAhead(input: WriteAheadInput) {
    if (!this.rows.some((r) => r.paylater_order_id === input.paylater_order_id)) {
      this.rows.push({
        id: `platm_${++this.seq}`,
        paylater_order_id: input.paylater_order_id,
        kind: input.kind,
        session_id: input.session_id,
        provider_id: input.provider_id ?? null,
        paylater_account: input.paylater_account ?? null,
        payment_collection_id: null,
        cart_id: null,
        order_id: null,
        payment_id: null,
        amount: input.amount,
        currency_code: input.currency_code.toLowerCase(),
        expires_at: input.expires_at,
        state: "starting",
        last_status_code: null,
        last_status_at: null,
        last_status_signal: null,
        paylater_ref: null,
        superseded_by: null,
        session_gone_at: null,
        start_error: null,
        detail: input.detail ?? null,
        created_at: new Date(Date.now() + this.seq),
      })
    }
    const old = input.supersedes ? this.rows.find((r) => r.paylater_order_id === input.supersedes) : undefined
    if (old && !old.superseded_by) old.superseded_by = input.paylater_order_id
  }

  private apply(id: string, event: AttemptEvent, changes: Partial<AttemptRecord> = {}) {
    const row = this.rows.find((r) => r.paylater_order_id === id)
    if (!row) return null
    Object.assign(row, changes, { state: nextState(row, event, new Date()) })
    return row
  }

  async recordStarted(id: string, input: { expires_at: Date | null; detail?: Record<string, unknown> | null }) {
    this.apply(id, { type: "started", expires_at: input.expires_at }, input.expires_at ? { expires_at: input.expires_at } : {})
  }

  async recordStartFailed(id: string, input: { maybe_landed: boolean; error_code: string }) {
    this.apply(id, { type: "start_failed", maybe_landed: input.maybe_landed }, { start_error: input.error_code })
  }

  async recordStatus(id: string, report: StatusReport) {
    return this.apply(id, { type: "status", code: report.code, message: report.message }, {
      last_status_code: report.code,
      last_status_signal: report.signal,
      last_status_at: new Date(),
      ...(report.paylater_ref ? { paylater_ref: report.paylater_ref } : {}),
    })
  }

  async recordUnanswered(id: string) {
    const row = this.rows.find((r) => r.paylater_order_id === id)
    if (!row) return null
    row.asks = (row.asks ?? 0) + 1
    return row
  }

  async markSessionGone(sessionId: string) {
    for (const row of this.rows.filter((r) => r.session_id === sessionId && !r.session_gone_at)) row.session_gone_at = new Date()
  }

  async findAttempt(id: string) {
    return this.rows.find((r) => r.paylater_order_id === id) ?? null
  }

  async currentAttemptOf(sessionId: string) {
    return this.rows.filter((r) => r.session_id === sessionId && !r.superseded_by).at(-1) ?? null
  }
}

import { BigNumber, InjectManager, InjectTransactionManager, MathBN, MedusaContext } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import { provideLedger, type LedgerPort } from "../ledger-port"
import { attemptAmount, decideRefund, refundedTotal, staleAttempts, type StoredRefundAttempt } from "../refund-ledger"
import type { BeginRefundInput, BeginRefundResult, SettleRefundInput } from "../types"
import { StatusSlots } from "./status-slots"
import { lockRefundsOf } from "./sql"
import { dedupeKeyOf, GIVING_BACK_REFUND_STATES, type AttentionRecord } from "../types"

/** A booking request counts for this long: the refund workflow it precedes runs at once. */
const BOOKING_REQUEST_TTL_MS = 5 * 60_000

/**
 * The refund guard's storage (`paylater_refund_attempt`): every refund written before it is sent,
 * refused while an earlier one is in flight or of unknown outcome (rules in refund-ledger.ts),
 * serialised per PayLater order. With the attempts below it, this layer completes the port the
 * payment provider uses (ledger-port.ts), so it is the one that hands the module over.
 */
export class RefundAttempts extends StatusSlots implements LedgerPort {
  constructor(...args: any[]) {
    super(...args)
    // The payment provider's way to this module (ledger-port.ts): it cannot resolve modules itself.
    provideLedger(this)
  }

  /**
   * Records a refund attempt before anything is sent, or refuses it (NOT_ALLOWED, words for the
   * admin) while an earlier refund of the same PayLater order is in flight or of unknown outcome, or
   * when it would take refunds past what was paid. Serialised per PayLater order.
   */
  async beginRefund(input: BeginRefundInput, sharedContext: Context = {}): Promise<BeginRefundResult> {
    // Committed on its own: the refusal that follows must not roll the item for a person back.
    await this.expireStaleRefunds(input.paylater_order_id, input.stale_after_ms, sharedContext)
    return this.beginRefund_(input, sharedContext)
  }

  /**
   * The same for one PayLater order, from outside a refund (the recovery job's sweep): a refund whose
   * process died after writing its attempt is listed even if nobody tries another refund of it.
   */
  async expireStaleRefundsOf(paylaterOrderId: string, staleAfterMs: number, sharedContext: Context = {}): Promise<void> {
    await this.expireStaleRefunds(paylaterOrderId, staleAfterMs, sharedContext)
  }

  /** Pending attempts whose sender died become unknown, and go on the list for a person. */
  @InjectTransactionManager()
  protected async expireStaleRefunds(
    paylaterOrderId: string,
    staleAfterMs: number,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    await lockRefundsOf(sharedContext, paylaterOrderId)
    const attempts = await this.refundAttemptsOf(paylaterOrderId, sharedContext)
    for (const attempt of staleAttempts(attempts, staleAfterMs, new Date())) {
      await this.markRefundUnknown(
        attempt.id,
        { error_code: "ABANDONED", error_message: "the process sending it stopped before PayLater answered" },
        sharedContext
      )
    }
  }

  @InjectTransactionManager()
  protected async beginRefund_(input: BeginRefundInput, @MedusaContext() sharedContext: Context = {}): Promise<BeginRefundResult> {
    await lockRefundsOf(sharedContext, input.paylater_order_id)
    const now = new Date()
    const attempts = await this.refundAttemptsOf(input.paylater_order_id, sharedContext)
    // A refund an operator confirmed, now being recorded on the order (requestBooking): book it.
    const requested = attempts.find(
      (a) =>
        a.status === "refunded" &&
        !a.booked_at &&
        a.booking_requested_at &&
        now.getTime() - new Date(a.booking_requested_at).getTime() < BOOKING_REQUEST_TTL_MS &&
        MathBN.eq(a.raw_amount ?? a.amount, input.amount)
    )
    input = requested && !input.booking_attempt_id ? { ...input, booking_attempt_id: requested.id } : input
    const decision = decideRefund(attempts, input)
    if (decision.mode === "book") {
      await this.updatePayLaterRefundAttempts(
        { id: input.booking_attempt_id!, booked_at: now, medusa_refund_id: input.medusa_refund_id ?? null },
        sharedContext
      )
      return { attempt_id: input.booking_attempt_id!, ...decision }
    }
    const created = await this.createPayLaterRefundAttempts(
      {
        paylater_order_id: input.paylater_order_id,
        session_id: input.session_id ?? null,
        payment_id: input.payment_id ?? null,
        payment_collection_id: input.payment_collection_id ?? null,
        medusa_refund_id: input.medusa_refund_id ?? null,
        // Exact: stored as numeric plus its raw decimal text, never through a float.
        amount: new BigNumber(input.amount) as unknown as number,
        full: decision.full,
        status: "pending",
        sent_at: now,
      },
      sharedContext
    )
    return { attempt_id: created.id, ...decision }
  }

  /**
   * An operator confirmed PayLater paid this refund out; the plugin is about to record it on the
   * Medusa order through Medusa's refund workflow, whose provider call must then book it, not send it.
   */
  async requestBooking(attemptId: string, sharedContext: Context = {}): Promise<void> {
    await this.updatePayLaterRefundAttempts({ id: attemptId, booking_requested_at: new Date() }, sharedContext)
  }

  /** The booking did not go through: a later refund of the same amount must be sent, not booked. */
  async withdrawBooking(attemptId: string, sharedContext: Context = {}): Promise<void> {
    await this.updatePayLaterRefundAttempts({ id: attemptId, booking_requested_at: null }, sharedContext)
  }

  /** PayLater's answer to an attempt. `unknown` also puts the payment on the list for a person. */
  @InjectTransactionManager()
  async settleRefund(attemptId: string, input: SettleRefundInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    if (input.outcome === "unknown") {
      await this.markRefundUnknown(attemptId, input, sharedContext)
      return
    }
    await this.updatePayLaterRefundAttempts(
      {
        id: attemptId,
        status: input.outcome,
        error_code: input.error_code ?? null,
        error_message: input.error_message ?? null,
        settled_at: new Date(),
        booked_at: input.outcome === "succeeded" ? new Date() : null,
      },
      sharedContext
    )
  }

  /** Refunded so far for a PayLater order (paid out for sure), two-decimal text. */
  @InjectManager()
  async refundedAmount(paylaterOrderId: string, @MedusaContext() sharedContext: Context = {}): Promise<string> {
    return refundedTotal(await this.refundAttemptsOf(paylaterOrderId, sharedContext))
  }

  /**
   * Whether any of an attempt's money went back to the shopper, or may have: a refund PayLater
   * accepted, one sent whose answer is unknown or still awaited (it may have been paid out), or the
   * list's automatic refund under way, done or of unknown outcome, or its item resolved as refunded.
   * Such money can never be an order's (the money plan's `given_back`); money not given back can
   * leave PayLater only by a refund. The plugin's own tables only, never Medusa's session data.
   */
  @InjectManager()
  async moneyGivenBack(paylaterOrderId: string, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    return (await this.givenBackFacts(paylaterOrderId, sharedContext)).given_back
  }

  /** `moneyGivenBack` and what PayLater accepted as refunded (two-decimal text), from one read of each table. */
  @InjectManager()
  async givenBackFacts(paylaterOrderId: string, @MedusaContext() sharedContext: Context = {}): Promise<{ given_back: boolean; refunded: string }> {
    const [attempts, [item]] = await Promise.all([
      this.refundAttemptsOf(paylaterOrderId, sharedContext),
      this.listPayLaterAttentions({ dedupe_key: dedupeKeyOf(paylaterOrderId) }, { take: 1 }, sharedContext) as unknown as Promise<AttentionRecord[]>,
    ])
    const refunded = refundedTotal(attempts)
    const given_back =
      MathBN.gt(refunded, 0) ||
      attempts.some((a) => a.status === "pending" || a.status === "unknown") ||
      (!!item && ((!!item.refund_state && GIVING_BACK_REFUND_STATES.includes(item.refund_state)) || item.resolution === "refunded"))
    return { given_back, refunded }
  }

  private async refundAttemptsOf(paylaterOrderId: string, sharedContext: Context): Promise<StoredRefundAttempt[]> {
    const rows = await this.listPayLaterRefundAttempts(
      { paylater_order_id: paylaterOrderId },
      { order: { sent_at: "ASC" } },
      sharedContext
    )
    return rows as unknown as StoredRefundAttempt[]
  }

  private async markRefundUnknown(
    attemptId: string,
    detail: { error_code?: string | null; error_message?: string | null },
    sharedContext: Context
  ): Promise<void> {
    const attempt = (await this.updatePayLaterRefundAttempts(
      {
        id: attemptId,
        status: "unknown",
        error_code: detail.error_code ?? null,
        error_message: detail.error_message ?? null,
        settled_at: new Date(),
      },
      sharedContext
    )) as unknown as StoredRefundAttempt & {
      paylater_order_id: string
      session_id: string | null
      payment_id: string | null
      payment_collection_id: string | null
    }
    const amount = attemptAmount(attempt)
    await this.flagForAttention(
      "refund_outcome_unknown",
      {
        dedupe_key: `refund_outcome_unknown:${attemptId}`,
        summary: `Refund of ${amount} QAR sent to PayLater without an answer (${detail.error_code ?? "unknown"}): check the PayLater merchant portal and record whether it was refunded.`,
        amount,
        paylater_order_id: attempt.paylater_order_id,
        session_id: attempt.session_id,
        payment_id: attempt.payment_id,
        payment_collection_id: attempt.payment_collection_id,
        detail: { refund_attempt_id: attemptId, error_code: detail.error_code ?? null, sent_at: attempt.sent_at },
      },
      sharedContext
    )
  }
}

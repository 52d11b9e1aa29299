import {
  BigNumber,
  generateEntityId,
  InjectManager,
  InjectTransactionManager,
  MedusaContext,
  MedusaError,
  MedusaService,
  MathBN,
} from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import { completionBackoffAfter, completionBackoffOf, nextAskAt, nextState, type AttemptEvent, type AttemptState } from "./attempt-state"
import { provideLedger, type AttemptLedger, type AttemptRecord, type StatusReport, type WriteAheadInput } from "./ledger-port"
import { PayLaterAttempt } from "./models/paylater-attempt"
import { PayLaterAttention } from "./models/paylater-attention"
import { PayLaterEvent } from "./models/paylater-event"
import { PayLaterReconcileRun } from "./models/paylater-reconcile-run"
import { PayLaterRefundAttempt } from "./models/paylater-refund-attempt"
import { PayLaterWebhookTally } from "./models/paylater-webhook-tally"
import { attemptAmount, decideRefund, refundedTotal, staleAttempts, type StoredRefundAttempt } from "./refund-ledger"
import {
  ATTENTION_KINDS,
  ATTENTION_RESOLUTIONS,
  type AttentionKind,
  type AttentionRecord,
  type BeginRefundInput,
  type BeginRefundResult,
  type FlagForAttentionInput,
  type PayLaterEventRecord,
  type RecordPayLaterEventInput,
  type ResolveAttentionInput,
  type SettleRefundInput,
  type WebhookSummary,
  type WebhookTallyInput,
} from "./types"

interface SqlManager {
  execute(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>
}

// Partial unique index of the model: the ON CONFLICT target must repeat its predicate.
const UPSERT = `
insert into "paylater_event"
  ("id", "session_id", "payment_collection_id", "paylater_order_id", "kind", "status", "detail",
   "occurred_at", "repeat_count", "dedupe_key")
values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
on conflict ("dedupe_key") where dedupe_key IS NOT NULL AND deleted_at IS NULL
do update set "repeat_count" = "paylater_event"."repeat_count" + 1,
              "last_occurred_at" = excluded."occurred_at",
              "updated_at" = now()
returning "id", "repeat_count"`

// One row per minute; counts add up, the latest refusal wins.
const TALLY_UPSERT = `
insert into "paylater_webhook_tally"
  ("id", "minute", "accepted", "refused", "failed", "last_refusal_reason", "last_refusal_at")
values (?, ?, ?, ?, ?, ?, ?)
on conflict ("minute") where deleted_at IS NULL
do update set "accepted" = "paylater_webhook_tally"."accepted" + excluded."accepted",
              "refused" = "paylater_webhook_tally"."refused" + excluded."refused",
              "failed" = "paylater_webhook_tally"."failed" + excluded."failed",
              "last_refusal_reason" = coalesce(excluded."last_refusal_reason", "paylater_webhook_tally"."last_refusal_reason"),
              "last_refusal_at" = greatest(excluded."last_refusal_at", "paylater_webhook_tally"."last_refusal_at"),
              "updated_at" = now()`

interface TransactionManager {
  getTransactionContext(): { raw(sql: string, params?: unknown[]): Promise<unknown> }
}

async function advisoryLock(sharedContext: Context, key: string): Promise<void> {
  const knex = (sharedContext.transactionManager as unknown as TransactionManager).getTransactionContext()
  await knex.raw("select pg_advisory_xact_lock(hashtext(?))", [key])
}

/** Serialises everything that decides about one PayLater order's refunds, for this transaction. */
const lockRefundsOf = (sharedContext: Context, paylaterOrderId: string) => advisoryLock(sharedContext, `paylater-refund:${paylaterOrderId}`)

/** A booking request counts for this long: the refund workflow it precedes runs at once. */
const BOOKING_REQUEST_TTL_MS = 5 * 60_000

/** Serialises the state changes of one attempt (two signals at once apply one after the other). */
const lockAttemptOf = (sharedContext: Context, paylaterOrderId: string) => advisoryLock(sharedContext, `paylater-attempt:${paylaterOrderId}`)

/**
 * The plugin's own records: the activity log of PayLater payments (`record`, atomic under
 * concurrency: two identical webhooks at the same moment give one row counted twice), the refund
 * guard's attempts (`beginRefund` / `settleRefund`), the list of payments needing a person
 * (`flagForAttention` / `resolveAttention`), webhook tallies and reconciliation runs.
 */
export class PayLaterLedgerModuleService
  extends MedusaService({
    PayLaterAttempt,
    PayLaterEvent,
    PayLaterRefundAttempt,
    PayLaterAttention,
    PayLaterWebhookTally,
    PayLaterReconcileRun,
  })
  implements AttemptLedger
{
  constructor(...args: any[]) {
    super(...args)
    // The payment provider's way to this module (ledger-port.ts): it cannot resolve modules itself.
    provideLedger(this)
  }

  // ---- Attempt ledger ----------------------------------------------------------------------------

  @InjectTransactionManager()
  async writeAhead(input: WriteAheadInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await lockAttemptOf(sharedContext, input.paylater_order_id)
    const [existing] = await this.listPayLaterAttempts({ paylater_order_id: input.paylater_order_id }, { take: 1 }, sharedContext)
    if (!existing) {
      await this.createPayLaterAttempts(
        {
          paylater_order_id: input.paylater_order_id,
          kind: input.kind,
          session_id: input.session_id,
          provider_id: input.provider_id ?? null,
          payment_collection_id: input.payment_collection_id ?? null,
          // Exact: numeric plus its raw decimal text, never through a float.
          amount: new BigNumber(input.amount) as unknown as number,
          currency_code: input.currency_code.toLowerCase(),
          expires_at: input.expires_at,
          state: "starting",
          detail: input.detail ?? null,
        },
        sharedContext
      )
    }
    if (input.supersedes) {
      const [old] = await this.listPayLaterAttempts({ paylater_order_id: input.supersedes }, { take: 1 }, sharedContext)
      if (old && !old.superseded_by) {
        await this.updatePayLaterAttempts({ id: old.id, superseded_by: input.paylater_order_id }, sharedContext)
      }
    }
  }

  async recordStarted(
    paylaterOrderId: string,
    input: { expires_at: Date | null; detail?: Record<string, unknown> | null },
    sharedContext: Context = {}
  ): Promise<void> {
    await this.applyToAttempt(paylaterOrderId, { type: "started", expires_at: input.expires_at }, (row) => ({
      ...(input.expires_at ? { expires_at: input.expires_at } : {}),
      ...(input.detail ? { detail: { ...(row.detail ?? {}), ...input.detail } } : {}),
    }), sharedContext)
  }

  async recordStartFailed(
    paylaterOrderId: string,
    input: { maybe_landed: boolean; error_code: string },
    sharedContext: Context = {}
  ): Promise<void> {
    await this.applyToAttempt(paylaterOrderId, { type: "start_failed", maybe_landed: input.maybe_landed }, () => ({ start_error: input.error_code.slice(0, 100) }), sharedContext)
  }

  async recordStatus(paylaterOrderId: string, report: StatusReport, sharedContext: Context = {}): Promise<AttemptRecord | null> {
    const at = report.at ?? new Date()
    return this.applyToAttempt(
      paylaterOrderId,
      { type: "status", code: report.code, message: report.message ?? null },
      (row) => ({
        last_status_code: report.code,
        last_status_at: at,
        last_status_signal: report.signal,
        asks: (row.asks ?? 0) + 1,
        next_ask_at: nextAskAt((row.asks ?? 0) + 1, at),
        ...(report.paylater_ref ? { paylater_ref: report.paylater_ref } : {}),
      }),
      sharedContext,
      at
    )
  }

  /** PayLater was asked and did not answer: asked again later (backoff), never given up on. */
  async recordUnanswered(paylaterOrderId: string, sharedContext: Context = {}): Promise<AttemptRecord | null> {
    const at = new Date()
    return this.applyToAttempt(
      paylaterOrderId,
      { type: "unanswered" },
      (row) => ({ asks: (row.asks ?? 0) + 1, next_ask_at: nextAskAt((row.asks ?? 0) + 1, at) }),
      sharedContext,
      at
    )
  }

  /** Our expiry rule: open attempts asked about long enough become expired. */
  async lapseAttempt(paylaterOrderId: string, sharedContext: Context = {}): Promise<AttemptRecord | null> {
    return this.applyToAttempt(paylaterOrderId, { type: "lapse" }, () => ({}), sharedContext)
  }

  /** Where the attempt belongs in Medusa, once settlement has seen its session. Never overwrites with null. */
  @InjectTransactionManager()
  async linkAttempt(
    paylaterOrderId: string,
    links: {
      payment_collection_id?: string | null
      cart_id?: string | null
      provider_id?: string | null
      payment_id?: string | null
      kind?: string
    },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    const changes = Object.fromEntries(
      Object.entries(links).filter(([key, value]) => value && (row as Record<string, unknown> | undefined)?.[key] !== value)
    )
    if (row && Object.keys(changes).length) {
      await this.updatePayLaterAttempts({ id: row.id, ...changes }, sharedContext)
    }
  }

  /**
   * The order that holds this attempt's money and the Medusa payment it holds it by
   * (settlement/order-owner.ts, from Medusa's payment record). The only writer of `order_id`.
   */
  @InjectTransactionManager()
  async recordOrderOwner(
    paylaterOrderId: string,
    owner: { order_id: string; payment_id: string },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<AttemptRecord | null> {
    await lockAttemptOf(sharedContext, paylaterOrderId)
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    if (!row) return null
    if (row.order_id === owner.order_id && row.payment_id === owner.payment_id) return row as unknown as AttemptRecord
    const [updated] = await this.updatePayLaterAttempts([{ id: row.id, order_id: owner.order_id, payment_id: owner.payment_id }], sharedContext)
    return updated as unknown as AttemptRecord
  }

  /**
   * Settling this attempt threw (not a lock timeout: an error inside the critical section). Counted
   * on the row, so a row that keeps failing is listed for a person instead of retried silently.
   */
  @InjectTransactionManager()
  async recordSettlementFailure(
    paylaterOrderId: string,
    error: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ count: number; first_at: string; last_error: string } | null> {
    await lockAttemptOf(sharedContext, paylaterOrderId)
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    if (!row) return null
    const detail = (row.detail ?? {}) as Record<string, any>
    const previous = detail.settlement_failures as { count?: number; first_at?: string } | undefined
    const failures = { count: (previous?.count ?? 0) + 1, first_at: previous?.first_at ?? new Date().toISOString(), last_error: error.slice(0, 300) }
    await this.updatePayLaterAttempts({ id: row.id, detail: { ...detail, settlement_failures: failures } }, sharedContext)
    return failures
  }

  /** Every attempt of one session, newest first. */
  @InjectManager()
  async attemptsOfSession(sessionId: string, @MedusaContext() sharedContext: Context = {}): Promise<AttemptRecord[]> {
    return (await this.listPayLaterAttempts({ session_id: sessionId }, { order: { created_at: "DESC" } }, sharedContext)) as unknown as AttemptRecord[]
  }

  /** A paid cart could not become an order: when to try again (attempt-state.ts backoff). */
  @InjectTransactionManager()
  async recordCompletionFailure(paylaterOrderId: string, error: string, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await lockAttemptOf(sharedContext, paylaterOrderId)
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    if (!row) return
    const detail = (row.detail ?? {}) as Record<string, unknown>
    const completion = completionBackoffAfter(completionBackoffOf(detail), error, new Date())
    await this.updatePayLaterAttempts({ id: row.id, detail: { ...detail, completion } }, sharedContext)
  }

  @InjectTransactionManager()
  async markSessionGone(sessionId: string, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const rows = await this.listPayLaterAttempts({ session_id: sessionId, session_gone_at: null }, {}, sharedContext)
    const now = new Date()
    for (const row of rows) {
      await this.updatePayLaterAttempts({ id: row.id, session_gone_at: now }, sharedContext)
    }
  }

  @InjectManager()
  async findAttempt(paylaterOrderId: string, @MedusaContext() sharedContext: Context = {}): Promise<AttemptRecord | null> {
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    return (row as unknown as AttemptRecord | undefined) ?? null
  }

  /** A session's current attempt: the latest one not superseded. */
  @InjectManager()
  async currentAttemptOf(sessionId: string, @MedusaContext() sharedContext: Context = {}): Promise<AttemptRecord | null> {
    const [row] = await this.listPayLaterAttempts(
      { session_id: sessionId, superseded_by: null },
      { order: { created_at: "DESC" }, take: 1 },
      sharedContext
    )
    return (row as unknown as AttemptRecord | undefined) ?? null
  }

  /** Attempts not yet paid nor ended, oldest first: reconciliation asks about them or lets them lapse. */
  @InjectManager()
  async openAttempts(@MedusaContext() sharedContext: Context = {}): Promise<AttemptRecord[]> {
    return (await this.listPayLaterAttempts(
      { state: ["starting", "open"] },
      { order: { created_at: "ASC" } },
      sharedContext
    )) as unknown as AttemptRecord[]
  }

  /** Every paid attempt changed since `since`: candidates for paid without an order. */
  @InjectManager()
  async paidAttemptsSince(since: Date, @MedusaContext() sharedContext: Context = {}): Promise<AttemptRecord[]> {
    return (await this.listPayLaterAttempts(
      { state: "paid", updated_at: { $gte: since } },
      { order: { updated_at: "ASC" } },
      sharedContext
    )) as unknown as AttemptRecord[]
  }

  @InjectTransactionManager()
  protected async applyToAttempt(
    paylaterOrderId: string,
    event: AttemptEvent,
    changes: (row: AttemptRecord) => Record<string, unknown>,
    @MedusaContext() sharedContext: Context = {},
    now: Date = new Date()
  ): Promise<AttemptRecord | null> {
    await lockAttemptOf(sharedContext, paylaterOrderId)
    const [found] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    const row = found as unknown as AttemptRecord | undefined
    if (!row) return null
    const state: AttemptState = nextState({ state: row.state, expires_at: row.expires_at }, event, now)
    const update = { ...changes(row), ...(state !== row.state ? { state } : {}) }
    if (!Object.keys(update).length) return row
    const [updated] = await this.updatePayLaterAttempts([{ id: row.id, ...update }], sharedContext)
    return updated as unknown as AttemptRecord
  }
  @InjectManager()
  async record(
    input: RecordPayLaterEventInput,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ id: string; repeat_count: number }> {
    const manager = sharedContext.manager as unknown as SqlManager
    const [row] = await manager.execute(UPSERT, [
      generateEntityId(undefined, "plevt"),
      input.session_id,
      input.payment_collection_id ?? null,
      input.paylater_order_id ?? null,
      input.kind,
      input.status ?? null,
      input.detail ? JSON.stringify(input.detail) : null,
      input.occurred_at ?? new Date(),
      input.dedupe_key ?? null,
    ])
    return { id: String(row.id), repeat_count: Number(row.repeat_count) }
  }

  /** Every event of the given payment collections and sessions, oldest first. */
  async listForPayments(filter: { payment_collection_ids: string[]; session_ids: string[] }): Promise<PayLaterEventRecord[]> {
    const or: Array<Record<string, unknown>> = []
    if (filter.payment_collection_ids.length) or.push({ payment_collection_id: filter.payment_collection_ids })
    if (filter.session_ids.length) or.push({ session_id: filter.session_ids })
    if (!or.length) return []
    const rows = await this.listPayLaterEvents({ $or: or } as never, { order: { occurred_at: "ASC" }, take: 500 })
    return rows as unknown as PayLaterEventRecord[]
  }

  // ---- Refund guard ------------------------------------------------------------------------------

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

  // ---- Payments needing a person -----------------------------------------------------------------

  /**
   * Puts a payment on Settings → PayLater's list. Idempotent with a `dedupe_key`: the row already
   * flagged under that key is returned unchanged (also when resolved: a thing a person settled is
   * not reopened by a repeat). Callable from any container: `container.resolve("paylater_ledger")`.
   */
  @InjectTransactionManager()
  async flagForAttention(
    kind: AttentionKind,
    input: FlagForAttentionInput,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<AttentionRecord> {
    if (!(ATTENTION_KINDS as readonly string[]).includes(kind)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Unknown PayLater attention kind "${kind}"`)
    }
    if (input.dedupe_key) {
      const knex = (sharedContext.transactionManager as unknown as TransactionManager).getTransactionContext()
      await knex.raw("select pg_advisory_xact_lock(hashtext(?))", [`paylater-attention:${input.dedupe_key}`])
      const [existing] = await this.listPayLaterAttentions({ dedupe_key: input.dedupe_key }, { take: 1 }, sharedContext)
      if (existing) {
        return existing as unknown as AttentionRecord
      }
    }
    const created = await this.createPayLaterAttentions(
      {
        kind,
        status: "open",
        dedupe_key: input.dedupe_key ?? null,
        summary: input.summary,
        amount: input.amount ?? null,
        paylater_order_id: input.paylater_order_id ?? null,
        session_id: input.session_id ?? null,
        payment_id: input.payment_id ?? null,
        payment_collection_id: input.payment_collection_id ?? null,
        order_id: input.order_id ?? null,
        cart_id: input.cart_id ?? null,
        detail: input.detail ?? null,
      },
      sharedContext
    )
    return created as unknown as AttentionRecord
  }

  /**
   * Closes an item with one of ATTENTION_RESOLUTIONS[kind]. For an unknown refund this also settles
   * the refund attempt (refunded / not_refunded), which lifts the guard. Repeating the same
   * resolution is a no-op; a different one on a resolved item is refused.
   */
  @InjectTransactionManager()
  async resolveAttention(
    id: string,
    input: ResolveAttentionInput,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<AttentionRecord> {
    const [item] = (await this.listPayLaterAttentions({ id }, { take: 1 }, sharedContext)) as unknown as AttentionRecord[]
    if (!item) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayLater attention item ${id} was not found`)
    }
    const allowed = ATTENTION_RESOLUTIONS[item.kind] ?? ["resolved"]
    if (!allowed.includes(input.resolution)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `"${input.resolution}" does not resolve a ${item.kind.replace(/_/g, " ")} item; use ${allowed.map((r) => `"${r}"`).join(" or ")}.`
      )
    }
    if (item.status === "resolved") {
      if (item.resolution === input.resolution) {
        return item
      }
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This item was already resolved as "${item.resolution}".`)
    }
    const attemptId = item.detail?.refund_attempt_id
    if (item.kind === "refund_outcome_unknown" && typeof attemptId === "string") {
      await lockRefundsOf(sharedContext, item.paylater_order_id ?? attemptId)
      await this.updatePayLaterRefundAttempts(
        { id: attemptId, status: input.resolution, settled_at: new Date() },
        sharedContext
      )
    }
    const updated = await this.updatePayLaterAttentions(
      {
        id,
        status: "resolved",
        resolution: input.resolution,
        resolution_note: input.note ?? null,
        resolved_by: input.actor_id ?? null,
        resolved_at: new Date(),
      },
      sharedContext
    )
    return updated as unknown as AttentionRecord
  }

  // ---- Webhook tallies and reconciliation runs (Settings → PayLater) ----------------------------

  /** Adds counts to one minute's row (atomic: several instances may flush the same minute). */
  @InjectManager()
  async addWebhookTally(input: WebhookTallyInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const manager = sharedContext.manager as unknown as SqlManager
    await manager.execute(TALLY_UPSERT, [
      generateEntityId(undefined, "plwht"),
      input.minute,
      input.accepted,
      input.refused,
      input.failed,
      input.last_refusal_reason ?? null,
      input.last_refusal_at ?? null,
    ])
    // Opportunistic pruning keeps the table at about two days of minutes.
    if (Math.random() < 0.02) {
      await manager.execute(`delete from "paylater_webhook_tally" where "minute" < now() - interval '2 days'`)
    }
  }

  /** Webhook answers since `since`, and the last refusal's reason. */
  @InjectManager()
  async webhookSummary(since: Date, @MedusaContext() sharedContext: Context = {}): Promise<WebhookSummary> {
    const manager = sharedContext.manager as unknown as SqlManager
    const [totals] = await manager.execute(
      `select coalesce(sum("accepted"), 0) as accepted, coalesce(sum("refused"), 0) as refused, coalesce(sum("failed"), 0) as failed
         from "paylater_webhook_tally" where "minute" >= ? and deleted_at is null`,
      [since]
    )
    const [last] = await manager.execute(
      `select "last_refusal_reason", "last_refusal_at" from "paylater_webhook_tally"
        where "last_refusal_at" is not null and deleted_at is null order by "last_refusal_at" desc limit 1`
    )
    return {
      accepted: Number(totals?.accepted ?? 0),
      refused: Number(totals?.refused ?? 0),
      failed: Number(totals?.failed ?? 0),
      last_refusal_reason: (last?.last_refusal_reason as string | undefined) ?? null,
      last_refusal_at: last?.last_refusal_at ? new Date(last.last_refusal_at as string).toISOString() : null,
    }
  }
}

export default PayLaterLedgerModuleService

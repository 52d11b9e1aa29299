import { BigNumber, InjectManager, InjectTransactionManager, MedusaContext } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import { completionBackoffAfter, completionBackoffOf, nextAskAt, nextState, type AttemptEvent, type AttemptState } from "../attempt-state"
import { linkChanges, type AttemptLedger, type AttemptLinkFields, type AttemptRecord, type StatusReport, type WriteAheadInput } from "../ledger-port"
import { lockAttemptOf } from "./sql"
import { checkoutOfSession, type SessionCheckout } from "./session-checkout"
import { PayLaterTables } from "./tables"

/**
 * The attempt ledger (`paylater_attempt`): one row per PayLater order the plugin started, written
 * before PayLater is called, moved only by attempt-state.ts's rules, and the only record of which
 * Medusa order holds each payment's money (`recordOrderOwner`). Each row's changes are serialised by
 * an advisory lock on its PayLater order id.
 */
export class Attempts extends PayLaterTables implements AttemptLedger {
  /**
   * The row, on its checkout from the first write: the collection the store request named, else
   * the one Medusa's session row names, and that collection's cart (session-checkout.ts).
   */
  async writeAhead(input: WriteAheadInput, sharedContext: Context = {}): Promise<void> {
    const checkout = await this.checkoutOf(input.session_id, sharedContext)
    const collectionId = input.payment_collection_id ?? checkout?.payment_collection_id ?? null
    // A cart only through the session's own collection (a request naming another gets none here).
    const cartId = checkout && checkout.payment_collection_id === collectionId ? checkout.cart_id : null
    await this.writeAheadOn({ ...input, payment_collection_id: collectionId }, cartId, sharedContext)
  }

  @InjectManager()
  protected async checkoutOf(sessionId: string, @MedusaContext() sharedContext: Context = {}): Promise<SessionCheckout | null> {
    return checkoutOfSession(sharedContext, sessionId)
  }

  @InjectTransactionManager()
  protected async writeAheadOn(input: WriteAheadInput, cartId: string | null, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await lockAttemptOf(sharedContext, input.paylater_order_id)
    const [existing] = await this.listPayLaterAttempts({ paylater_order_id: input.paylater_order_id }, { take: 1 }, sharedContext)
    if (!existing) {
      await this.createPayLaterAttempts(
        {
          paylater_order_id: input.paylater_order_id,
          kind: input.kind,
          session_id: input.session_id,
          provider_id: input.provider_id ?? null,
          paylater_account: input.paylater_account ?? null,
          payment_collection_id: input.payment_collection_id ?? null,
          cart_id: cartId,
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
        ...linkChanges(row, report.links),
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

  /** Where the attempt belongs in Medusa, once settlement has seen its session. Never overwrites with null. */
  @InjectTransactionManager()
  async linkAttempt(
    paylaterOrderId: string,
    links: AttemptLinkFields,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    const [row] = await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)
    const changes = linkChanges(row, links)
    if (row && Object.keys(changes).length) {
      await this.updatePayLaterAttempts({ id: row.id, ...changes }, sharedContext)
    }
  }

  /**
   * The order that holds this attempt's money and the Medusa payment it holds it by
   * (medusa-effects/order-owner.ts, decided by whose-money.ts). The only writer of `order_id`.
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
    const [row] = (await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)) as unknown as AttemptRecord[]
    if (!row) return null
    const count = (row.settlement_failures ?? 0) + 1
    const since = row.settlement_failing_since ? new Date(row.settlement_failing_since) : new Date()
    const lastError = error.slice(0, 300)
    await this.updatePayLaterAttempts(
      { id: row.id, settlement_failures: count, settlement_failing_since: since, settlement_error: lastError },
      sharedContext
    )
    return { count, first_at: since.toISOString(), last_error: lastError }
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
    const [row] = (await this.listPayLaterAttempts({ paylater_order_id: paylaterOrderId }, { take: 1 }, sharedContext)) as unknown as AttemptRecord[]
    if (!row) return
    const next = completionBackoffAfter(completionBackoffOf(row), error, new Date())
    await this.updatePayLaterAttempts(
      { id: row.id, completion_tries: next.tries, completion_next_at: next.next_at, completion_error: next.last_error },
      sharedContext
    )
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

  /** Attempts not yet paid nor ended by PayLater, oldest first: reconciliation asks about them until PayLater ends them. */
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
    const update = { ...changes(row), ...(state !== row.state ? { state } : {}), ...paidAtUpdate(row, state, now) }
    if (!Object.keys(update).length) return row
    const [updated] = await this.updatePayLaterAttempts([{ id: row.id, ...update }], sharedContext)
    return updated as unknown as AttemptRecord
  }
}

/**
 * `paid_at` is written once: by the update that turns the row paid. A row another version of the
 * plugin turned paid without it (written between the column's migration and this code running) gets
 * its last status time before this update, the closest record of when PayLater first said so.
 */
export function paidAtUpdate(
  row: Pick<AttemptRecord, "state" | "paid_at" | "last_status_at">,
  next: AttemptState,
  now: Date
): { paid_at?: Date } {
  if (next !== "paid" || row.paid_at) return {}
  if (row.state !== "paid") return { paid_at: now }
  return { paid_at: row.last_status_at ? new Date(row.last_status_at) : now }
}

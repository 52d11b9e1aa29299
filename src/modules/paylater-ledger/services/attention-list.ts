import { InjectTransactionManager, MedusaContext, MedusaError } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import {
  ATTENTION_KINDS,
  ATTENTION_RESOLUTIONS,
  type AttentionKind,
  type AttentionRecord,
  type FlagForAttentionInput,
  type ResolveAttentionInput,
} from "../types"
import { Attempts } from "./attempts"
import { lockAttentionKey, lockRefundsOf } from "./sql"

/**
 * The list of payments needing a person (`paylater_attention`, Settings → PayLater). Below the
 * refund attempts in the chain because an unknown refund outcome puts itself on this list; resolving
 * such an item settles the refund attempt through the generated CRUD, under the refund lock.
 */
export class AttentionList extends Attempts {
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
      await lockAttentionKey(sharedContext, input.dedupe_key)
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
        refund_state: input.refund_state ?? null,
        refund_tries: input.refund_tries ?? 0,
        refund_next_at: input.refund_next_at ?? null,
        refund_error: input.refund_error ?? null,
        refund_due_at: input.refund_due_at ?? null,
        decided_at: new Date(),
      },
      sharedContext
    )
    return created as unknown as AttentionRecord
  }

  /**
   * An order came to hold this attempt's money (medusa-effects/order-owner.ts): its open items about
   * money without an order close, with the reason as their note and no person named, and any
   * automatic refund still waiting stops. Idempotent.
   */
  @InjectTransactionManager()
  async closeAttentionOfAttempt(paylaterOrderId: string, note: string, @MedusaContext() sharedContext: Context = {}): Promise<number> {
    const open = (await this.listPayLaterAttentions(
      { paylater_order_id: paylaterOrderId, status: "open", kind: ["paid_without_order", "orphaned"] },
      {},
      sharedContext
    )) as unknown as AttentionRecord[]
    for (const item of open) {
      await this.updatePayLaterAttentions(
        {
          id: item.id,
          status: "resolved",
          resolution: "resolved",
          resolution_note: note,
          resolved_by: null,
          resolved_at: new Date(),
          // Any automatic refund still waiting stops: the money is the order's.
          refund_due_at: null,
          refund_next_at: null,
          ...(item.refund_state ? { refund_state: "stopped" as const } : {}),
        },
        sharedContext
      )
    }
    return open.length
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
}

import { generateEntityId, InjectManager, MedusaContext } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import type { PayLaterEventRecord, RecordPayLaterEventInput } from "../types"
import { RefundAttempts } from "./refund-attempts"
import type { SqlManager } from "./sql"

// Partial unique index of the model: the ON CONFLICT target must repeat its predicate.
const EVENT_UPSERT = `
insert into "paylater_event"
  ("id", "session_id", "payment_collection_id", "paylater_order_id", "kind", "status", "detail",
   "occurred_at", "repeat_count", "dedupe_key")
values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
on conflict ("dedupe_key") where dedupe_key IS NOT NULL AND deleted_at IS NULL
do update set "repeat_count" = "paylater_event"."repeat_count" + 1,
              "last_occurred_at" = excluded."occurred_at",
              "updated_at" = now()
returning "id", "repeat_count"`

/**
 * The activity history (`paylater_event`): what happened to PayLater payments that Medusa's own
 * records do not show (returns, verified webhooks, status checks), for the admin's order card.
 * `record` is atomic under concurrency: two identical webhooks at once give one row counted twice.
 */
export class ActivityHistory extends RefundAttempts {
  @InjectManager()
  async record(
    input: RecordPayLaterEventInput,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ id: string; repeat_count: number }> {
    const manager = sharedContext.manager as unknown as SqlManager
    const [row] = await manager.execute(EVENT_UPSERT, [
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
}

import { generateEntityId, InjectManager, MedusaContext } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import type { WebhookSummary, WebhookTallyInput } from "../types"
import { ActivityHistory } from "./activity-history"
import type { SqlManager } from "./sql"

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

/**
 * Settings → PayLater's health figures: webhook answers per minute (`paylater_webhook_tally`).
 * Reconciliation runs (`paylater_reconcile_run`) need no method of their own: reconcile-runs.ts
 * writes and prunes them through the generated CRUD.
 */
export class WebhookTallies extends ActivityHistory {
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

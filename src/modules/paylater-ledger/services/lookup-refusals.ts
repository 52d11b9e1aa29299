import { generateEntityId, InjectManager, MedusaContext } from "@medusajs/framework/utils"
import type { Context } from "@medusajs/framework/types"
import type { LookupRefusalInput } from "../types"
import type { SqlManager } from "./sql"
import { WebhookTallies } from "./webhook-tallies"

// Atomic under concurrent starts, from any instance: the unique (hour, kind, code) index takes the
// second writer's row as an increment of the first's.
const REFUSAL_UPSERT = `
insert into "paylater_lookup_refusal" ("id", "hour", "kind", "code", "count")
values (?, ?, ?, ?, 1)
on conflict ("hour", "kind", "code") where deleted_at IS NULL
do update set "count" = "paylater_lookup_refusal"."count" + 1, "updated_at" = now()`

/** The store route's look-up refusals per hour (`paylater_lookup_refusal`), for the funnel. */
export class LookupRefusals extends WebhookTallies {
  /** Counts one refusal in its hour's row. */
  @InjectManager()
  async countLookupRefusal(input: LookupRefusalInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const manager = sharedContext.manager as unknown as SqlManager
    await manager.execute(REFUSAL_UPSERT, [generateEntityId(undefined, "pllkr"), input.hour, input.kind, input.code])
  }
}

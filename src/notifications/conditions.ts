import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import { configuredRegistrations, registrationIdOf } from "../medusa-records/registrations"
import { PAYLATER_PROVIDER } from "../medusa-records/session"
import { schedulerStalledSince } from "../reconciliation/scheduler-stalled"
import { webhooksRefused, type Condition, type TallyMinute } from "./rules"

// Tallies are kept about two days; an episode is named by the last accepted minute in them.
const TALLY_WINDOW_MS = 48 * 60 * 60_000
// Enough open attempts to tell which registrations they name; a removed one shows in any sample.
const OPEN_ATTEMPTS_READ = 5000

/**
 * What is wrong with the store's connection to PayLater right now, read from what Settings →
 * PayLater shows: the scheduler's stall (scheduler-stalled.ts), webhook refusals (the webhook
 * tallies) and registrations removed from medusa-config while their payments are open.
 */
export async function currentConditions(container: MedusaContainer, ledger: PayLaterLedgerModuleService, now: Date): Promise<Condition[]> {
  const conditions: Condition[] = []
  const stalled = await schedulerStalledSince(container, now)
  if (stalled) conditions.push({ kind: "scheduler_stalled", since: stalled })

  const rows = (await ledger.listPayLaterWebhookTallies(
    { minute: { $gte: new Date(now.getTime() - TALLY_WINDOW_MS) } },
    { select: ["minute", "accepted", "refused", "last_refusal_reason"], take: 4000 }
  )) as unknown as Array<Omit<TallyMinute, "minute"> & { minute: Date | string }>
  const refused = webhooksRefused(
    rows.map((r) => ({ ...r, minute: new Date(r.minute), accepted: Number(r.accepted), refused: Number(r.refused) })),
    now
  )
  if (refused) conditions.push({ kind: "webhooks_refused", ...refused })

  const configured = new Set(configuredRegistrations(container).map((r) => r.id))
  const open = (await ledger.listPayLaterAttempts({ state: "open" }, { select: ["provider_id"], take: OPEN_ATTEMPTS_READ })) as unknown as Array<{
    provider_id: string | null
  }>
  const removed = new Map<string, number>()
  for (const row of open) {
    if (!row.provider_id || !PAYLATER_PROVIDER.test(row.provider_id)) continue
    const id = registrationIdOf(row.provider_id)
    if (!configured.has(id)) removed.set(id, (removed.get(id) ?? 0) + 1)
  }
  for (const [registration, count] of removed) conditions.push({ kind: "registration_removed", registration, open: count })
  return conditions
}

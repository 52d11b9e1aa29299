import type { MedusaContainer } from "@medusajs/framework/types"
import { parseExpression } from "cron-parser"
import { readRegistrations, type PayLaterRegistration } from "../../../../medusa-records/registrations"
import { reconcileSchedule } from "../../../../reconciliation/schedule"
import { schedulerStalledSince } from "../../../../reconciliation/scheduler-stalled"
import { requireLedgerModule } from "../attention/attention"
import { storeCeiling } from "./ceiling"

const DAY_MS = 24 * 60 * 60 * 1000

/** Public facts about one registration: nothing secret (no client secret, webhook secret or token). */
export function describeRegistration(registration: PayLaterRegistration) {
  const options = registration.options
  return {
    id: registration.id,
    provider_ids: registration.provider_ids,
    configured: !!options,
    environment: options?.config.environment ?? null,
    outlet_id: options?.config.outletId ?? null,
    api_base_url: options?.config.apiBaseUrl ?? null,
    webhook_url: options ? `${options.backendUrl}/paylater/webhooks` : null,
    merchant_id_checked: !!options?.config.merchantId,
    /** Configuration that runs but deserves a look (e.g. no merchantId): the boot log's warnings. */
    warnings: options?.warnings ?? [],
    link_amounts: options ? { min: options.config.minAmount, max: options.config.maxAmount } : null,
    request_to_pay_amounts: options
      ? { min: options.config.requestToPayMinAmount, max: options.config.requestToPayMaxAmount }
      : null,
  }
}

function nextRunAt(cron: string, now: Date): string | null {
  try {
    return parseExpression(cron, { currentDate: now, utc: true }).next().toDate().toISOString()
  } catch {
    return null
  }
}

/** Everything Settings → PayLater shows above the list of payments needing a person. */
export async function payLaterOverview(container: MedusaContainer, now = new Date()) {
  const ledger = requireLedgerModule(container)
  const registrations = await readRegistrations(container)
  const schedule = reconcileSchedule()
  const [[lastRun], stalled] = await Promise.all([
    ledger.listPayLaterReconcileRuns({}, { order: { started_at: "DESC" }, take: 1 }),
    // Medusa's scheduler stopped (e.g. a Redis that lost its data): the watchdog stands in, a person should restart Medusa.
    schedulerStalledSince(container, now),
  ])
  const stalledSince = stalled?.toISOString() ?? null
  const [, openCount] = await ledger.listAndCountPayLaterAttentions({ status: "open" }, { select: ["id"], take: 1 })
  return {
    registrations: registrations.map(describeRegistration),
    webhooks: { since: new Date(now.getTime() - DAY_MS).toISOString(), ...(await ledger.webhookSummary(new Date(now.getTime() - DAY_MS))) },
    reconciliation: {
      schedule: schedule.disabled ? "off" : schedule.cron,
      next_run_at: schedule.disabled ? null : nextRunAt(schedule.cron, now),
      /** The scheduler's last run, when it is older than a few periods of the schedule; else null. */
      scheduler_stalled_since: stalledSince,
      last_run: lastRun
        ? {
            started_at: new Date(lastRun.started_at).toISOString(),
            finished_at: new Date(lastRun.finished_at).toISOString(),
            ran: lastRun.ran,
            checked: lastRun.checked,
            eligible: lastRun.eligible,
            outcomes: lastRun.outcomes ?? {},
            error: lastRun.error ?? null,
            trigger: lastRun.trigger ?? "schedule",
          }
        : null,
    },
    attention_open: openCount,
    store_ceiling: await storeCeiling(container, registrations, now),
  }
}

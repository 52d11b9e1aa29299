import type { MedusaContainer } from "@medusajs/framework/types"
import { lastScheduledRunAt } from "../modules/paylater-ledger/reconcile-runs"
import { reconcileSchedule } from "./schedule"
import { schedulePeriodMs, scheduleStalled } from "./schedule-watchdog"

/**
 * Since when Medusa's scheduler has not run the PayLater jobs, once that is longer than
 * STALLED_AFTER_PERIODS periods of the schedule; null while it runs (or is switched off, or never
 * ran). What Settings → PayLater warns about and the merchant is notified of (src/notifications).
 */
export async function schedulerStalledSince(container: MedusaContainer, now: Date = new Date()): Promise<Date | null> {
  const schedule = reconcileSchedule()
  if (schedule.disabled) return null
  const scheduledAt = await lastScheduledRunAt(container)
  if (!scheduledAt) return null
  const periodMs = schedulePeriodMs(schedule.cron, now)
  return scheduleStalled({ lastScheduledAt: scheduledAt, watchingSince: scheduledAt, periodMs, now }) ? scheduledAt : null
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { parseExpression } from "cron-parser"
import { lastScheduledRunAt } from "../modules/paylater-ledger/reconcile-runs"
import { reconcileSchedule } from "./schedule"

/**
 * Medusa keeps its scheduled jobs in the workflow engine's store and registers them at boot. With the
 * Redis workflow engine, a Redis that restarts empty (no persistence) loses them, and no job runs
 * again until a Medusa process boots (fault campaign, issue 32): lost webhooks are never recovered
 * and no paid-without-order refund is sent, silently. So every process that ran a job keeps watch:
 * once the scheduler's last recorded run (any instance's; the runs table is shared) is older than
 * STALLED_AFTER_PERIODS periods of the schedule, this process runs both jobs itself every period and
 * says so, until the scheduler runs again. Reconciliation's run lock and the refunds' own locks keep
 * two watching processes from doing the same work at once.
 */
export const STALLED_AFTER_PERIODS = 3

/** The schedule's period: the gap between its next two runs (2 minutes if it cannot be read). */
export function schedulePeriodMs(cron: string, now: Date = new Date()): number {
  try {
    const next = parseExpression(cron, { currentDate: now, utc: true })
    const first = next.next().getTime()
    return Math.max(1000, next.next().getTime() - first)
  } catch {
    return 120_000
  }
}

/**
 * Whether the schedule looks stopped: no scheduled run for STALLED_AFTER_PERIODS periods, counted
 * from the later of that run and when this process started watching (a store whose last run is a
 * week old because it was switched off is not stalled the moment it boots).
 */
export function scheduleStalled(input: { lastScheduledAt: Date | null; watchingSince: Date; periodMs: number; now: Date }): boolean {
  const since = Math.max(input.lastScheduledAt?.getTime() ?? 0, input.watchingSince.getTime())
  return input.now.getTime() - since > STALLED_AFTER_PERIODS * input.periodMs
}

export interface WatchDeps {
  lastScheduledAt(): Promise<Date | null>
  runJobs(): Promise<void>
  warn(line: string): void
  info(line: string): void
}

export interface Watch {
  watchingSince: Date
  periodMs: number
  /** Since when this process stands in for the schedule (null while the scheduler runs). */
  standingInSince: Date | null
}

/** One look: stands in for the schedule when it stalled, says so once, and once when it recovered. */
export async function watchOnce(watch: Watch, deps: WatchDeps, now: Date = new Date()): Promise<"ok" | "stood_in"> {
  const lastScheduledAt = await deps.lastScheduledAt()
  if (!scheduleStalled({ lastScheduledAt, watchingSince: watch.watchingSince, periodMs: watch.periodMs, now })) {
    if (watch.standingInSince) {
      deps.info("PayLater: Medusa's scheduler runs the PayLater jobs again; the watchdog stops standing in")
      watch.standingInSince = null
    }
    return "ok"
  }
  if (!watch.standingInSince) {
    watch.standingInSince = now
    deps.warn(
      `PayLater: the scheduled jobs (reconciliation, recovery of payments) have not run since ${lastScheduledAt?.toISOString() ?? "this process started"}; ` +
        "this process runs them itself until the scheduler is back. Medusa registers scheduled jobs at boot: after a Redis that lost its data, restart Medusa (docs/production.md)."
    )
  }
  await deps.runJobs()
  return "stood_in"
}

let started: NodeJS.Timeout | null = null

/**
 * Starts the watch in this process (once; later calls do nothing). Never throws. `runJobs`: both
 * jobs' work (job-runs/run-jobs.ts `runBothJobs`), handed in by the jobs so this folder never imports
 * the one above it.
 */
export function watchSchedule(container: MedusaContainer, runJobs: () => Promise<void>): void {
  if (started) return
  const schedule = reconcileSchedule()
  if (schedule.disabled) return
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const watch: Watch = { watchingSince: new Date(), periodMs: schedulePeriodMs(schedule.cron), standingInSince: null }
  const deps: WatchDeps = {
    lastScheduledAt: () => lastScheduledRunAt(container),
    runJobs,
    warn: (line) => logger.warn(line),
    info: (line) => logger.info(line),
  }
  let busy = false
  started = setInterval(() => {
    if (busy) return
    busy = true
    watchOnce(watch, deps)
      .catch((e: unknown) => logger.warn(`PayLater watchdog: ${(e as Error)?.message ?? e}`))
      .finally(() => {
        busy = false
      })
  }, watch.periodMs)
  // The watch never keeps a process alive that is shutting down.
  started.unref()
}

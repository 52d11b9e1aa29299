/**
 * The job's schedule, from PAYLATER_RECONCILE_SCHEDULE. Medusa reads a job's `config.schedule` once,
 * when it loads the file, so this cannot be a provider option.
 *
 * - unset: every 2 minutes. A lost webhook then costs at most a couple of minutes, and each run asks
 *   PayLater at most `reconcileMaxCallsPerMinute` times a minute (reconciliation/call-budget.ts).
 * - a cron expression (5 fields, or 6 with seconds), e.g. "* * * * *" for every minute.
 * - "off": the job still loads but every run returns at once (the workflow can still be run by hand).
 *   Integration tests use it so that no background run changes what a test observes.
 */
export const DEFAULT_RECONCILE_SCHEDULE = "*/2 * * * *"

export interface ReconcileSchedule {
  cron: string
  disabled: boolean
}

const CRON_FIELD = /^[\d*/,\-A-Za-z?LW#]+$/

export function reconcileSchedule(value: string | undefined = process.env.PAYLATER_RECONCILE_SCHEDULE): ReconcileSchedule {
  const text = (value ?? "").trim()
  if (!text) {
    return { cron: DEFAULT_RECONCILE_SCHEDULE, disabled: false }
  }
  if (/^(off|false|disabled?|none)$/i.test(text)) {
    return { cron: DEFAULT_RECONCILE_SCHEDULE, disabled: true }
  }
  const fields = text.split(/\s+/)
  if ((fields.length !== 5 && fields.length !== 6) || !fields.every((f) => CRON_FIELD.test(f))) {
    throw new Error(
      `PAYLATER_RECONCILE_SCHEDULE="${text}" is not a cron expression (e.g. "*/2 * * * *") or "off"`
    )
  }
  return { cron: fields.join(" "), disabled: false }
}

/** The line the job logs at boot, so an operator can see it is there (it is silent until it has work). */
export function describeReconcileSchedule(schedule: ReconcileSchedule): string {
  if (schedule.disabled) {
    return "PayLater reconciliation: off (PAYLATER_RECONCILE_SCHEDULE); lost webhooks are not recovered automatically"
  }
  const every = schedule.cron === DEFAULT_RECONCILE_SCHEDULE ? "every 2 minutes" : "PAYLATER_RECONCILE_SCHEDULE"
  return `PayLater reconciliation: scheduled "${schedule.cron}" (${every}); it logs a line only when it finds work`
}

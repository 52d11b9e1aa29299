/**
 * Options of the reconciliation job (src/jobs/paylater-reconcile.ts), kept with the other provider
 * options so a merchant configures PayLater in one place and a wrong value stops boot.
 *
 * The job's schedule is not here: Medusa reads a job's `config.schedule` when it loads the file,
 * before any provider exists, so it comes from the PAYLATER_RECONCILE_SCHEDULE environment variable.
 */

export interface ReconcileOptionsInput {
  /** Sessions created within this many minutes are reconciled (default 1440, one day). */
  reconcileLookbackMinutes?: number | string
  /** At most this many sessions are asked about per run (default 50). */
  reconcileBatchSize?: number | string
  /** At most this many PayLater status calls at a time (default 4). */
  reconcileConcurrency?: number | string
}

export interface ReconcileSettings {
  lookbackMinutes: number
  batchSize: number
  concurrency: number
}

export const RECONCILE_DEFAULTS: ReconcileSettings = {
  lookbackMinutes: 1440,
  batchSize: 50,
  concurrency: 4,
}

// A week: beyond it PayLater links and requests (at most 1440 minutes) are long over.
const MAX_LOOKBACK_MINUTES = 10080
// How long after its expiry a link is still worth asking about (a payment in its last minute).
const LOOKBACK_MARGIN_MINUTES = 10

function wholeNumber(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? value : null
  }
  if (typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value)) {
    return Number(value.trim())
  }
  return null
}

/** A whole-number option (numbers or digit-only text from env); a wrong value is added to `problems`. */
export function wholeNumberOption(
  raw: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fallback: number,
  hint: string,
  problems: string[]
): number {
  const value = raw[name]
  if (value === undefined || value === null || value === "") {
    return fallback
  }
  const n = wholeNumber(value)
  if (n === null || n < min || n > max) {
    problems.push(`${name} must be a whole number between ${min} and ${max} (${hint})`)
    return fallback
  }
  return n
}

/**
 * Reads the reconciliation options; `problems` collects what is wrong (the caller reports them with
 * every other option problem). `longestExpiryMinutes` is the longest a link or request stays payable:
 * a shorter look-back would stop asking about a session before PayLater's answer is final.
 */
export function readReconcileOptions(
  raw: Record<string, unknown>,
  longestExpiryMinutes: number,
  problems: string[]
): ReconcileSettings {
  const lookbackMinutes = wholeNumberOption(
    raw,
    "reconcileLookbackMinutes",
    1,
    MAX_LOOKBACK_MINUTES,
    Math.max(RECONCILE_DEFAULTS.lookbackMinutes, longestExpiryMinutes + LOOKBACK_MARGIN_MINUTES),
    "how far back pending PayLater payments are checked",
    problems
  )
  if (lookbackMinutes < longestExpiryMinutes + LOOKBACK_MARGIN_MINUTES) {
    problems.push(
      `reconcileLookbackMinutes (${lookbackMinutes}) must be at least ${longestExpiryMinutes + LOOKBACK_MARGIN_MINUTES}: the longest link or request validity (${longestExpiryMinutes} minutes) plus ${LOOKBACK_MARGIN_MINUTES}, or a payment made in its last minutes could be missed`
    )
  }
  return {
    lookbackMinutes,
    batchSize: wholeNumberOption(raw, "reconcileBatchSize", 1, 1000, RECONCILE_DEFAULTS.batchSize, "sessions checked per run", problems),
    concurrency: wholeNumberOption(raw, "reconcileConcurrency", 1, 16, RECONCILE_DEFAULTS.concurrency, "PayLater status calls at a time", problems),
  }
}

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
  /** At most this many payments are asked about per run (default 5000; the call budget usually ends a run first). */
  reconcileBatchSize?: number | string
  /** At most this many PayLater status calls at a time (default 4). */
  reconcileConcurrency?: number | string
  /** At most this many PayLater status calls per minute, spread evenly (default 600). */
  reconcileMaxCallsPerMinute?: number | string
}

export interface ReconcileSettings {
  lookbackMinutes: number
  batchSize: number
  concurrency: number
  maxCallsPerMinute: number
}

/**
 * PayLater publishes no rate limits. 600 status calls a minute (10 a second, one every 100 ms) is
 * the default: with runs every 2 minutes, each bounded to 100 s, that is about 500 calls a minute,
 * so a 10,000-row backlog is asked once in about 20 minutes, well inside a link's 60-minute window,
 * and 50 new rows a minute (about 350 calls a minute with the per-row backoff) leave room to drain
 * it. Ten calls a second is a modest rate for one merchant's reads. A store whose PayLater account
 * manager names a limit sets it here.
 */
export const RECONCILE_DEFAULTS: ReconcileSettings = {
  lookbackMinutes: 1440,
  batchSize: 5000,
  concurrency: 4,
  maxCallsPerMinute: 600,
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
    batchSize: wholeNumberOption(raw, "reconcileBatchSize", 1, 100000, RECONCILE_DEFAULTS.batchSize, "payments checked per run", problems),
    concurrency: wholeNumberOption(raw, "reconcileConcurrency", 1, 16, RECONCILE_DEFAULTS.concurrency, "PayLater status calls at a time", problems),
    maxCallsPerMinute: wholeNumberOption(raw, "reconcileMaxCallsPerMinute", 1, 60000, RECONCILE_DEFAULTS.maxCallsPerMinute, "PayLater status calls per minute", problems),
  }
}

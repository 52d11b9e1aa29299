import { writeSync } from "node:fs"

/**
 * Named crash points: a test-only hook that kills this process at an irreversible boundary, so the
 * fault campaign (bench/fault-campaign.js) can prove that a process dying exactly there loses no
 * money. Off unless PAYLATER_CRASH_POINTS names the point; refused at boot (provider options, see
 * `crashPointProblems`) when a PayLater registration takes live payments (`environment: "production"`).
 *
 *   PAYLATER_CRASH_POINTS="complete:after-order"          first hit kills the process
 *   PAYLATER_CRASH_POINTS="start:after-write-ahead@3"     the third hit does
 *   PAYLATER_CRASH_POINTS="refund:after-sent,complete:after-order@2"
 *
 * SIGKILL, not an exception or exit(): no `finally`, no shutdown hook, no pending write runs after
 * it, as when the machine loses power. One line goes to stderr first (synchronously) so the
 * campaign can count the hit.
 */

/** Every boundary where a dead process leaves money half-recorded. */
export const CRASH_POINTS = [
  /** The attempt's ledger row is written; PayLater has not been asked to create the order yet. */
  "start:after-write-ahead",
  /** PayLater answered the create (the order exists there); the row does not record it yet. */
  "start:after-paylater-answered",
  /** Medusa recorded the paid session's payment (authorized and captured); the cart is not an order yet. */
  "settle:after-authorized",
  /** PayLater's success is recorded on the row; Medusa has not recorded the payment yet. */
  "settle:after-paid-recorded",
  /** The cart became an order; the ledger row does not record the order as its owner yet. */
  "complete:after-order",
  /** PayLater accepted a refund; the refund attempt does not record the outcome yet. */
  "refund:after-sent",
  /** The automatic refund of a payment without an order was accepted; its plan still says "refunding". */
  "auto-refund:after-sent",
] as const

export type CrashPointName = (typeof CRASH_POINTS)[number]

export const CRASH_POINTS_ENV = "PAYLATER_CRASH_POINTS"

/** The marker line written to stderr just before the kill (the campaign greps its server log for it). */
export const CRASH_LINE_PREFIX = "PAYLATER_CRASH_POINT"

export interface CrashPlan {
  /** point → the hit (1-based) that kills the process */
  at: Map<string, number>
  problems: string[]
}

/** Reads PAYLATER_CRASH_POINTS: `name[@N]` separated by commas or spaces. */
export function parseCrashPoints(value: string | undefined): CrashPlan {
  const at = new Map<string, number>()
  const problems: string[] = []
  for (const entry of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z:-]+)(?:@(\d{1,6}))?$/.exec(entry)
    const name = match?.[1]
    const nth = match?.[2] ? Number(match[2]) : 1
    if (!match || !(CRASH_POINTS as readonly string[]).includes(name!) || nth < 1) {
      problems.push(`${CRASH_POINTS_ENV}: "${entry}" is not one of ${CRASH_POINTS.join(", ")} (optionally @N, N >= 1)`)
      continue
    }
    at.set(name!, nth)
  }
  return { at, problems }
}

/**
 * Why this configuration may not run with crash points armed: empty when none are armed or every
 * PayLater registration is a sandbox. Called by the provider's option validation, so a live store
 * with the variable set (a copied .env) refuses to boot instead of dying mid-payment.
 */
export function crashPointProblems(environment: string | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
  const value = env[CRASH_POINTS_ENV]
  if (!value || !value.trim()) return []
  const plan = parseCrashPoints(value)
  if (environment === "production") {
    return [
      `${CRASH_POINTS_ENV} is set: crash points kill the server on purpose and are for fault tests against PayLater's sandbox only; with environment "production" (live payments) unset it`,
    ]
  }
  return plan.problems
}

let plan: CrashPlan | null = null
const hits = new Map<string, number>()

/** Kills this process here when the campaign aimed at this point (and this is the aimed hit); else nothing. */
export function crashPoint(name: CrashPointName): void {
  plan ??= parseCrashPoints(process.env[CRASH_POINTS_ENV])
  const nth = plan.at.get(name)
  if (nth === undefined) return
  const hit = (hits.get(name) ?? 0) + 1
  hits.set(name, hit)
  if (hit !== nth) return
  try {
    writeSync(2, `${CRASH_LINE_PREFIX} ${name} hit ${hit} pid ${process.pid}\n`)
  } finally {
    process.kill(process.pid, "SIGKILL")
  }
}

/** For unit tests: forget the parsed variable and the hit counts. */
export function resetCrashPointsForTests(): void {
  plan = null
  hits.clear()
}

import { writeSync } from "node:fs"
import ipaddr from "ipaddr.js"

/**
 * Named crash points: a test-only hook that kills this process at an irreversible boundary, so the
 * fault campaign (bench/fault-campaign.js) can prove that a process dying exactly there loses no
 * money. Off unless PAYLATER_CRASH_POINTS names the point. Armed only next to the local sandbox: the
 * boot is refused (provider options, see `crashPointProblems`) unless every PayLater registration
 * is a sandbox one whose API base is on this machine's loopback, in a process whose NODE_ENV is
 * not production.
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

/** What the boot check needs to know about one PayLater registration. */
export interface CrashPointTarget {
  /** `environment` as parsed: "sandbox" or "production". */
  environment: string | undefined
  /** The API base the registration talks to (PayLater's host when `apiBaseUrl` is unset). */
  apiBaseUrl: string | undefined
}

/**
 * Whether `url` names this machine's loopback: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8,
 * ::1, or 127.x written as IPv4-mapped IPv6. Names are not resolved. 0.0.0.0 and private addresses
 * are not loopback: another machine may answer there.
 */
export function isLoopbackUrl(url: string | undefined): boolean {
  let host: string
  try {
    host = new URL(url ?? "").hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.+$/, "")
  } catch {
    return false
  }
  if (/^(localhost|.+\.localhost)$/.test(host)) return true
  if (!ipaddr.isValid(host)) return false
  const address = ipaddr.process(host)
  return address.range() === "loopback"
}

/** Whether NODE_ENV says production: Medusa's "production"/"prod", or anything naming prod (its database config reads /prod/i). */
function productionNodeEnv(env: NodeJS.ProcessEnv): boolean {
  return /prod/i.test(env.NODE_ENV ?? "")
}

/**
 * Why this configuration may not run with crash points armed: empty when none are armed, or when the
 * registration talks to the local sandbox (environment "sandbox", a loopback API base) in a process
 * that is not production. Each refusal names the variable to change. Called by the provider's option
 * validation, so a store with the variable set (a copied .env) refuses to boot instead of dying
 * mid-payment next to real money.
 */
export function crashPointProblems(target: CrashPointTarget, env: NodeJS.ProcessEnv = process.env): string[] {
  const value = env[CRASH_POINTS_ENV]
  if (!value || !value.trim()) return []
  const plan = parseCrashPoints(value)
  const armed = `${CRASH_POINTS_ENV} is set: crash points kill the server on purpose and may be armed only against the local PayLater sandbox`
  const problems: string[] = []
  if (target.environment !== "sandbox") {
    problems.push(`${armed}, and environment is "${target.environment ?? "unset"}" (live payments): unset ${CRASH_POINTS_ENV}`)
  }
  if (!isLoopbackUrl(target.apiBaseUrl)) {
    problems.push(
      `${armed}, and apiBaseUrl (PAYLATER_API_BASE_URL in the README's configuration) is ${target.apiBaseUrl ?? "unset"}, not a loopback address such as http://127.0.0.1:4010: unset ${CRASH_POINTS_ENV}`
    )
  }
  if (productionNodeEnv(env)) {
    problems.push(`${armed}, and NODE_ENV is "${env.NODE_ENV}": unset ${CRASH_POINTS_ENV} (fault tests run with NODE_ENV=staging, test or development)`)
  }
  return [...problems, ...plan.problems]
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

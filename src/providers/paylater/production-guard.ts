import { DEFAULTS as SANDBOX_DEFAULTS } from "../../sandbox/options"
import type { PayLaterConfig } from "../../lib/paylater"
import ipaddr from "ipaddr.js"

/**
 * What a store running as production (NODE_ENV=production or prod, as Medusa reads it) must not get wrong about PayLater, checked at boot
 * with every other option problem (options.ts). The point is to make "which PayLater am I paid by"
 * a decision the merchant wrote down, never a default:
 *
 * - `environment` must be written out: unset used to mean PayLater's sandbox, silently.
 * - `environment: "production"` talks to PayLater over https to a host that is not this machine,
 *   unless `allowInsecureApiBase: true` says a plain-http, local or private address is intended (e.g. an
 *   egress proxy on localhost that does the TLS). It may not use the local sandbox's built-in client
 *   secret or webhook secret: anyone who has read our README knows them.
 * - `environment: "sandbox"` written out is the merchant's own statement that no real money moves
 *   (a staging store, a rehearsal against the local sandbox): allowed, and said once in the log and
 *   on Settings → PayLater.
 *
 * A missing `merchantId` is not refused (PayLater's onboarding does not always hand one out), but
 * webhooks are then accepted for any merchant signed with our secret: said once in the log and on
 * Settings → PayLater.
 */

export interface ProductionGuardInput {
  /** The options exactly as the merchant wrote them (before defaults). */
  raw: Record<string, unknown>
  /** The parsed configuration (defaults filled). */
  config: PayLaterConfig
  allowInsecureApiBase: boolean
}

// The local sandbox's built-in secrets (src/sandbox/options.ts): public, so never a real credential.
const KNOWN_SECRETS: ReadonlyArray<{ option: "clientSecret" | "webhookSecret"; value: string }> = [
  { option: "clientSecret", value: SANDBOX_DEFAULTS.clientSecret },
  { option: "webhookSecret", value: SANDBOX_DEFAULTS.webhookSecret },
]

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "")
}

// The names that always mean this machine (RFC 6761), whatever DNS says; trailing dots are removed first.
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|.+\.localhost)$/

/**
 * Why `hostname` (as `new URL()` gives it: IPv4 canonical, IPv6 in brackets) is not a live PayLater
 * host, or null when it may be. Names are not resolved (no DNS at boot): a name is refused only when
 * it always means this machine (localhost, *.localhost, localhost.localdomain, also with trailing
 * dots). An IP literal is classified by ipaddr.js (the address library Express's proxy handling
 * uses) and refused unless it is a global unicast address: loopback, unspecified, private, link-local
 * (e.g. the cloud metadata address 169.254.169.254), unique-local, carrier-grade NAT, IPv4-mapped
 * IPv6 (`[::ffff:0:0]` reaches 0.0.0.0), 6to4, Teredo, NAT64, multicast and reserved ranges.
 */
export function localHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.+$/, "")
  if (LOCAL_NAMES.test(host)) {
    return "this machine"
  }
  if (!ipaddr.isValid(host)) {
    return null
  }
  const range = ipaddr.parse(host).range()
  return range === "unicast" ? null : `in the ${range} address range, not a public one`
}

/** Whether this process runs as production, as Medusa's own isProduction() reads it ("production" or "prod"). */
export function isProductionProcess(env: NodeJS.ProcessEnv = process.env): boolean {
  return ["production", "prod"].includes(env.NODE_ENV || "")
}

/** The problems that refuse boot in production; empty when the configuration may run. */
export function productionProblems(input: ProductionGuardInput): string[] {
  const problems: string[] = []
  if (isBlank(input.raw.environment)) {
    problems.push(
      'environment must be set explicitly when NODE_ENV=production: "production" for real payments, or "sandbox" if this store is meant to take test payments only'
    )
    return problems
  }
  if (input.config.environment !== "production") {
    return problems
  }
  const url = new URL(input.config.apiBaseUrl)
  const local = localHostReason(url.hostname)
  if (!input.allowInsecureApiBase && (url.protocol !== "https:" || local)) {
    problems.push(
      `apiBaseUrl ${url.origin} is ${url.protocol !== "https:" ? "plain http" : local}: with environment "production" PayLater is reached over https at its own host (leave apiBaseUrl out to use it); set allowInsecureApiBase: true only if this address is intended`
    )
  }
  for (const known of KNOWN_SECRETS) {
    const value = input.raw[known.option]
    if (typeof value === "string" && value.trim() === known.value) {
      problems.push(
        `${known.option} is the local PayLater sandbox's built-in value, which is public: with environment "production" use the one PayLater issued`
      )
    }
  }
  return problems
}

/** What the log and Settings → PayLater say about a configuration that may run but deserves a look. */
export function configurationWarnings(config: PayLaterConfig, production: boolean): string[] {
  const warnings: string[] = []
  if (!config.merchantId) {
    warnings.push(
      "merchantId is not set: webhooks signed with the webhook secret are accepted whatever merchant they name. Set it to the merchant id PayLater issued."
    )
  }
  if (production && config.environment === "sandbox") {
    warnings.push(`environment is "sandbox" (${config.apiBaseUrl}): this store takes test payments only, no real money moves.`)
  }
  return warnings
}

// Several provider services (link, Request to Pay) share one registration: say each thing once per process.
const warned = new Set<string>()

export function warnOnce(logger: { warn(message: string): void }, warnings: string[]): void {
  for (const warning of warnings) {
    if (warned.has(warning)) continue
    warned.add(warning)
    logger.warn(`PayLater: ${warning}`)
  }
}

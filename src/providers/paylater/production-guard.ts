import { DEFAULTS as SANDBOX_DEFAULTS } from "../../sandbox/options"
import type { PayLaterConfig } from "../../lib/paylater"

/**
 * What a store running with NODE_ENV=production must not get wrong about PayLater, checked at boot
 * with every other option problem (options.ts). The point is to make "which PayLater am I paid by"
 * a decision the merchant wrote down, never a default:
 *
 * - `environment` must be written out: unset used to mean PayLater's sandbox, silently.
 * - `environment: "production"` talks to PayLater over https to a host that is not this machine,
 *   unless `allowInsecureApiBase: true` says a plain-http or loopback address is intended (e.g. an
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

/** localhost, *.localhost, 127.0.0.0/8, 0.0.0.0, ::1 (and its IPv4-mapped form). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "")
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "0.0.0.0" ||
    host === "::1" ||
    host === "::" ||
    /^::ffff:127\./.test(host) ||
    /^::ffff:7f[0-9a-f]{2}:/.test(host)
  )
}

/** Whether this process runs as production (Medusa's own switch). */
export function isProductionProcess(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production"
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
  if (!input.allowInsecureApiBase && (url.protocol !== "https:" || isLoopbackHost(url.hostname))) {
    problems.push(
      `apiBaseUrl ${url.origin} is ${url.protocol !== "https:" ? "plain http" : "this machine"}: with environment "production" PayLater is reached over https at its own host (leave apiBaseUrl out to use it); set allowInsecureApiBase: true only if this address is intended`
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

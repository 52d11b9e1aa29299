import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, type PayLaterApi } from "../lib/paylater"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { payLaterClientFor } from "../providers/paylater/clients"
import { accountOf } from "../providers/paylater/registration"
import { resolveProviderOptions, type ResolvedProviderOptions } from "../providers/paylater/options"
import { RECONCILE_DEFAULTS, type ReconcileSettings } from "../providers/paylater/reconcile-options"
import { PAYLATER_PROVIDER } from "./provider-ids"

/** One PayLater registration in medusa-config: both its payment methods share its options. */
export interface PayLaterRegistration {
  /** The provider entry's `id` ("paylater" → pp_paylater_paylater, pp_paylater-rtp_paylater). */
  id: string
  provider_ids: string[]
  /** Null when the registered provider's options could not be found in the configuration. */
  options: ResolvedProviderOptions | null
}

interface ProviderEntry {
  id?: unknown
  resolve?: unknown
  options?: unknown
}

/** `pp_paylater-rtp_paylater` → `paylater`. */
export function registrationIdOf(providerId: string): string {
  return providerId.replace(PAYLATER_PROVIDER, "")
}

export interface ConfiguredRegistration {
  id: string
  /** Null when the provider refused these options at boot. */
  options: ResolvedProviderOptions | null
}

// The configuration never changes while the app runs: read it once per app (container).
const configured = new WeakMap<object, ConfiguredRegistration[]>()

/**
 * Every PayLater provider entry of the configuration the app booted with (the payment module's
 * `providers` whose `resolve` names this plugin's provider), with its options resolved. Synchronous
 * and read once, so the webhook route can use it on its hot path.
 */
export function configuredRegistrations(container: MedusaContainer): ConfiguredRegistration[] {
  const configModule = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as { modules?: unknown }
  let found = configured.get(configModule)
  if (found) return found
  const modules = configModule.modules
  const mods = Array.isArray(modules) ? modules : modules && typeof modules === "object" ? Object.values(modules) : []
  const byId = new Map<string, ConfiguredRegistration>()
  for (const mod of mods) {
    const list = (mod as { options?: { providers?: unknown } } | null)?.options?.providers
    if (!Array.isArray(list)) continue
    for (const entry of list as ProviderEntry[]) {
      if (typeof entry?.id !== "string" || byId.has(entry.id)) continue
      if (typeof entry.resolve !== "string" || !/paylater/i.test(entry.resolve)) continue
      let options: ResolvedProviderOptions | null = null
      try {
        options = resolveProviderOptions(entry.options ?? {})
      } catch {
        // The provider itself refused these options at boot.
        options = null
      }
      byId.set(entry.id, { id: entry.id, options })
    }
  }
  found = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id))
  configured.set(configModule, found)
  return found
}

/**
 * The provider options every registered PayLater provider was loaded with: the registrations the
 * payment module knows, with their configured options. The job needs them for its look-back and
 * batch size, and to ask PayLater about deleted sessions.
 */
export async function readRegistrations(container: MedusaContainer): Promise<PayLaterRegistration[]> {
  const payment = container.resolve(Modules.PAYMENT)
  const providers = await payment.listPaymentProviders({}, { select: ["id"] })
  const providerIds = providers.map((p) => p.id).filter((id) => PAYLATER_PROVIDER.test(id))
  const ids = [...new Set(providerIds.map(registrationIdOf))].sort()
  const options = new Map(configuredRegistrations(container).map((r) => [r.id, r.options]))
  return ids.map((id) => ({
    id,
    provider_ids: providerIds.filter((p) => registrationIdOf(p) === id).sort(),
    options: options.get(id) ?? null,
  }))
}

/** The PayLater client of a registration (the same one its provider uses), or null without options. */
export function clientForRegistration(container: MedusaContainer, registrationId: string): PayLaterApi | null {
  const registration = configuredRegistrations(container).find((r) => r.id === registrationId)
  if (!registration?.options) return null
  return payLaterClientFor(registration.options.config, container.resolve(ContainerRegistrationKeys.LOGGER))
}

/**
 * One run covers every registration: the longest look-back and the largest batch and concurrency
 * any of them asks for, the smallest calls-per-minute budget (a store normally has one).
 */
export function runSettings(registrations: PayLaterRegistration[]): ReconcileSettings {
  const all = registrations.map((r) => r.options?.reconcile ?? RECONCILE_DEFAULTS)
  if (!all.length) return { ...RECONCILE_DEFAULTS }
  return {
    lookbackMinutes: Math.max(...all.map((s) => s.lookbackMinutes)),
    batchSize: Math.max(...all.map((s) => s.batchSize)),
    concurrency: Math.max(...all.map((s) => s.concurrency)),
    // A limit on what PayLater is sent: the strictest one wins.
    maxCallsPerMinute: Math.min(...all.map((s) => s.maxCallsPerMinute)),
  }
}

/** The options of the registration a PayLater provider id belongs to; null for any other id. */
export function registeredProviderOptions(container: MedusaContainer, providerId: string): ResolvedProviderOptions | null {
  if (!PAYLATER_PROVIDER.test(providerId)) return null
  const id = registrationIdOf(providerId)
  return configuredRegistrations(container).find((r) => r.id === id)?.options ?? null
}

/** The registration an attempt belongs to, or why none may be asked about it. */
export type AttemptRegistrationMatch =
  | { ok: true; id: string; provider_id: string; options: ResolvedProviderOptions }
  | { ok: false; why: string }

/**
 * Which configured registration an attempt belongs to. Pure: from the row's provider id (written
 * ahead by the provider that started it, or linked by settlement from Medusa's session) checked
 * against the account recorded with it; for a row without a provider id, only a registration using
 * exactly its recorded account. Never the first or only registration, never a merchant id: an
 * attempt asked or refunded at another account is asked about the wrong money.
 */
export function matchRegistration(
  row: Pick<AttemptRecord, "provider_id" | "paylater_account" | "kind">,
  registrations: readonly ConfiguredRegistration[]
): AttemptRegistrationMatch {
  const account = row.paylater_account ?? null
  if (row.provider_id) {
    if (!PAYLATER_PROVIDER.test(row.provider_id)) {
      return { ok: false, why: `it names provider ${row.provider_id}, which is not a PayLater one` }
    }
    const id = registrationIdOf(row.provider_id)
    const registration = registrations.find((r) => r.id === id)
    if (!registration) {
      return { ok: false, why: `its PayLater registration "${id}" (${row.provider_id}) is no longer configured in medusa-config` }
    }
    if (!registration.options) {
      return { ok: false, why: `its PayLater registration "${id}" has options the provider refused at boot` }
    }
    const now = accountOf(registration.options.config)
    if (account && account !== now) {
      return { ok: false, why: `its PayLater registration "${id}" now points at another PayLater account (${now}) than the one it was sent to (${account})` }
    }
    return { ok: true, id, provider_id: row.provider_id, options: registration.options }
  }
  if (!account) {
    return { ok: false, why: "it was recorded before attempts kept their PayLater registration and account" }
  }
  const same = registrations.filter((r) => r.options && accountOf(r.options.config) === account)
  if (same.length !== 1) {
    return {
      ok: false,
      why: same.length
        ? `several PayLater registrations (${same.map((r) => r.id).join(", ")}) use its account (${account})`
        : `no configured PayLater registration uses its account (${account})`,
    }
  }
  const [registration] = same
  const provider_id = `pp_${row.kind === "link" ? "paylater" : "paylater-rtp"}_${registration.id}`
  return { ok: true, id: registration.id, provider_id, options: registration.options! }
}

/** An attempt's registration with the client that reaches its account (the one its provider uses). */
export type AttemptRegistration = Extract<AttemptRegistrationMatch, { ok: true }> & { api: PayLaterApi }

/**
 * The one answer to "where is this attempt asked about and refunded": its registration and that
 * registration's PayLater client, or why there is none (the attempt is then sent nowhere).
 */
export function registrationOfAttempt(
  container: MedusaContainer,
  row: Pick<AttemptRecord, "provider_id" | "paylater_account" | "kind">
): AttemptRegistration | { ok: false; why: string } {
  const match = matchRegistration(row, configuredRegistrations(container))
  if (!match.ok) return match
  return { ...match, api: payLaterClientFor(match.options.config, container.resolve(ContainerRegistrationKeys.LOGGER)) }
}

// Per process: an attempt nobody may ask about is looked at on every reconciliation turn.
const warned = new Set<string>()

/** Logs once (per process) that an attempt is sent nowhere, and why; the row stays as it is. */
export function warnUnroutedOnce(logger: { warn(message: string): void }, paylaterOrderId: string, why: string): void {
  if (warned.has(paylaterOrderId)) return
  if (warned.size >= 10_000) warned.clear()
  warned.add(paylaterOrderId)
  logger.warn(
    `PayLater: ${logRef(paylaterOrderId)} is not asked about nor refunded at any PayLater account: ${why}. A paid one is listed on Settings → PayLater for a person.`
  )
}

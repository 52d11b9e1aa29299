import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterApi } from "../lib/paylater"
import { payLaterClientFor } from "../providers/paylater/clients"
import { resolveProviderOptions, type ResolvedProviderOptions } from "../providers/paylater/options"
import { RECONCILE_DEFAULTS, type ReconcileSettings } from "../providers/paylater/reconcile-options"
import { PAYLATER_PROVIDER } from "./session"

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

interface ConfiguredRegistration {
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

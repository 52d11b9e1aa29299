import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { resolveProviderOptions, type ResolvedProviderOptions } from "../../providers/paylater/options"
import { RECONCILE_DEFAULTS, type ReconcileSettings } from "../../providers/paylater/reconcile-options"
import { PAYLATER_PROVIDER } from "../paylater-payment-state/session-context"

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
  options?: unknown
}

/** `pp_paylater-rtp_paylater` → `paylater`. */
export function registrationIdOf(providerId: string): string {
  return providerId.replace(PAYLATER_PROVIDER, "")
}

/**
 * The provider options every registered PayLater provider was loaded with, read from the
 * configuration the app booted with (the payment module's `providers` entries). The job needs them
 * for its look-back and batch size, and to ask PayLater about deleted sessions.
 */
export async function readRegistrations(container: MedusaContainer): Promise<PayLaterRegistration[]> {
  const payment = container.resolve(Modules.PAYMENT)
  const providers = await payment.listPaymentProviders({}, { select: ["id"] })
  const providerIds = providers.map((p) => p.id).filter((id) => PAYLATER_PROVIDER.test(id))
  const ids = [...new Set(providerIds.map(registrationIdOf))].sort()

  const entries = new Map<string, unknown>()
  const configModule = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as { modules?: Record<string, unknown> }
  for (const mod of Object.values(configModule.modules ?? {})) {
    const list = (mod as { options?: { providers?: unknown } } | null)?.options?.providers
    if (!Array.isArray(list)) continue
    for (const entry of list as ProviderEntry[]) {
      if (typeof entry?.id === "string" && ids.includes(entry.id) && !entries.has(entry.id)) {
        entries.set(entry.id, entry.options)
      }
    }
  }

  return ids.map((id) => {
    let options: ResolvedProviderOptions | null = null
    try {
      options = entries.has(id) ? resolveProviderOptions(entries.get(id)) : null
    } catch {
      // The provider itself refused these options at boot; nothing to reconcile with them.
      options = null
    }
    return { id, provider_ids: providerIds.filter((p) => registrationIdOf(p) === id).sort(), options }
  })
}

/**
 * One run covers every registration: the longest look-back and the largest batch and concurrency
 * any of them asks for (a store normally has one).
 */
export function runSettings(registrations: PayLaterRegistration[]): ReconcileSettings {
  const all = registrations.map((r) => r.options?.reconcile ?? RECONCILE_DEFAULTS)
  if (!all.length) return { ...RECONCILE_DEFAULTS }
  return {
    lookbackMinutes: Math.max(...all.map((s) => s.lookbackMinutes)),
    batchSize: Math.max(...all.map((s) => s.batchSize)),
    concurrency: Math.max(...all.map((s) => s.concurrency)),
  }
}

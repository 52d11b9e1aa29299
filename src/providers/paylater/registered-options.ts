import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { resolveProviderOptions, type ResolvedProviderOptions } from "./options"

/**
 * The options a PayLater provider was registered with (medusa-config → payment module → providers),
 * for code that runs outside the payment module (store routes) and needs the same settings. Read
 * from the app's configuration and validated once per provider id; null when the id names no
 * PayLater provider of this app.
 */

type Row = Record<string, any>

const resolved = new Map<string, ResolvedProviderOptions | null>()

function rawOptionsFor(container: MedusaContainer, providerId: string): unknown | null {
  const match = /^pp_paylater(?:-rtp)?_(.+)$/.exec(providerId)
  if (!match) {
    return null
  }
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as unknown as { modules?: unknown }
  const modules = config.modules
  const entries: Row[] = Array.isArray(modules)
    ? (modules as Row[])
    : modules && typeof modules === "object"
      ? (Object.values(modules) as Row[])
      : []
  for (const entry of entries) {
    const providers = entry?.options?.providers
    if (!Array.isArray(providers)) continue
    for (const provider of providers as Row[]) {
      if (provider?.id === match[1] && typeof provider.resolve === "string" && /paylater/i.test(provider.resolve)) {
        return provider.options ?? {}
      }
    }
  }
  return null
}

export function registeredProviderOptions(container: MedusaContainer, providerId: string): ResolvedProviderOptions | null {
  if (!resolved.has(providerId)) {
    const raw = rawOptionsFor(container, providerId)
    // The provider validated the same options at boot, so this cannot throw for a running app.
    resolved.set(providerId, raw === null ? null : resolveProviderOptions(raw))
  }
  return resolved.get(providerId) ?? null
}

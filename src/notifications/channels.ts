import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { configuredRegistrations } from "../medusa-records/registrations"

/**
 * Where the merchant can be told: the channels the store's Notification Module has a provider for
 * (from the configuration it booted with, as the module's own loader reads it), narrowed by the
 * PayLater options (`notifyFeed`, `notifyEmails`). Read once per app: the configuration never
 * changes while it runs.
 */
export interface Audience {
  /** The admin's notification panel (the `feed` channel). */
  feed: boolean
  /** Addresses told on the `email` channel. */
  emails: string[]
  /** The admin's URL (`{backendUrl}{admin.path}`), for links. */
  adminUrl: string
  /** Why nothing, or less than asked, is sent: logged once. */
  off: string[]
}

interface ProviderEntry {
  options?: { channels?: unknown }
}

/** The channels a provider is configured on in the store's Notification Module; null without the module. */
export function storeChannels(configModule: { modules?: unknown }): Set<string> | null {
  const modules = configModule.modules
  const entry = Array.isArray(modules)
    ? modules.find((m) => /notification$/.test(String((m as { resolve?: unknown })?.resolve ?? "")))
    : modules && typeof modules === "object"
      ? (modules as Record<string, unknown>)[Modules.NOTIFICATION]
      : undefined
  if (!entry || typeof entry !== "object" || (entry as { disable?: unknown }).disable === true) return null
  const options = (entry as { options?: { providers?: unknown; cloud?: { api_key?: unknown } } }).options
  const channels = new Set<string>()
  for (const provider of (Array.isArray(options?.providers) ? options!.providers : []) as ProviderEntry[]) {
    for (const channel of Array.isArray(provider?.options?.channels) ? provider.options!.channels : []) {
      if (typeof channel === "string") channels.add(channel)
    }
  }
  // Medusa Cloud adds its e-mail provider when no other is configured on `email`.
  if (options?.cloud?.api_key) channels.add("email")
  return channels
}

const audiences = new WeakMap<object, Audience>()

export function audienceOf(container: MedusaContainer): Audience {
  const configModule = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as {
    modules?: unknown
    admin?: { path?: unknown; backendUrl?: unknown }
  }
  const known = audiences.get(configModule)
  if (known) return known
  const registrations = configuredRegistrations(container).filter((r) => r.options)
  const wantFeed = registrations.some((r) => r.options!.notify.feed)
  const emails = [...new Set(registrations.flatMap((r) => r.options!.notify.emails))]
  const backendUrl = registrations[0]?.options?.backendUrl ?? (typeof configModule.admin?.backendUrl === "string" ? configModule.admin.backendUrl : "")
  const path = typeof configModule.admin?.path === "string" ? configModule.admin.path : "/app"
  const registered = (() => {
    try {
      return !!container.resolve(Modules.NOTIFICATION, { allowUnregistered: true })
    } catch {
      return false
    }
  })()
  const channels = registered ? storeChannels(configModule) ?? new Set<string>() : null
  const off: string[] = []
  if (!registrations.length) off.push("no PayLater registration is configured")
  if (!channels) off.push("the store has no Notification Module")
  else {
    if (wantFeed && !channels.has("feed")) off.push('no notification provider is configured on the "feed" channel (the admin\'s panel)')
    if (!wantFeed && registrations.length) off.push("notifyFeed is false")
    if (emails.length && !channels.has("email")) off.push('notifyEmails is set but no notification provider is configured on the "email" channel')
  }
  const audience: Audience = {
    feed: !!channels?.has("feed") && wantFeed,
    emails: channels?.has("email") ? emails : [],
    adminUrl: `${backendUrl.replace(/\/+$/, "")}${path}`,
    off,
  }
  audiences.set(configModule, audience)
  return audience
}

import type { PayLaterConfig } from "../../lib/paylater"

/**
 * Which PayLater account a call goes to, public-safe (no secret: the outlet, the client id and the
 * API base). Written on each attempt's ledger row when it is created, so the row is only ever asked
 * about and refunded at that account (medusa-records/registrations.ts `registrationOfAttempt`).
 */
export function accountOf(config: Pick<PayLaterConfig, "outletId" | "clientId" | "apiBaseUrl">): string {
  return `outlet ${config.outletId}, client ${config.clientId}, ${config.apiBaseUrl}`
}

/**
 * The id Medusa registered a provider instance under (`pp_<identifier>_<entry id>`), or null when
 * it cannot be told. Medusa builds a provider with (cradle, options) only, and adds each id to the
 * payment module's `payment_providers` list; the provider's own id is the one of this identifier
 * whose (singleton) registration is this very instance. Call it after construction: resolving a
 * provider's own name inside its constructor would recurse.
 */
export function registeredIdOf(cradle: Record<string, unknown>, self: object, identifier: string): string | null {
  let ids: unknown
  try {
    ids = cradle.payment_providers
  } catch {
    // Awilix cradles throw for unregistered names (a cradle outside Medusa's payment module).
    return null
  }
  if (!Array.isArray(ids)) return null
  const prefix = `pp_${identifier}_`
  for (const id of ids) {
    if (typeof id !== "string" || !id.startsWith(prefix)) continue
    try {
      if (cradle[id] === self) return id
    } catch {
      // Another registration of this identifier that cannot be built is not this one.
    }
  }
  return null
}

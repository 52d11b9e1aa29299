import { createHash } from "node:crypto"
import { PayLaterClient, type PayLaterApi, type PayLaterConfig } from "../../lib/paylater"

/** What the client logs through: Medusa's logger or the console. */
export interface ClientLogger {
  debug?(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

// Keyed by a digest of the whole configuration, so the secret never becomes a readable key.
const clients = new Map<string, PayLaterApi>()

/**
 * The one place a PayLaterClient is built. One client (and so one cached token) per configuration
 * for the life of the process: the provider, the reconciliation job and the admin's read-only
 * checks of the same registration share it.
 */
export function payLaterClientFor(config: PayLaterConfig, logger: ClientLogger): PayLaterApi {
  const key = createHash("sha256").update(JSON.stringify(config)).digest("hex")
  let client = clients.get(key)
  if (!client) {
    client = new PayLaterClient(config, {
      logger: {
        debug: (m) => logger.debug?.(m),
        info: (m) => logger.info(m),
        warn: (m) => logger.warn(m),
        error: (m) => logger.error(m),
      },
    })
    clients.set(key, client)
  }
  return client
}

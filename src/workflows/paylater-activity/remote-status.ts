import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PayLaterClient, type PaymentStatus } from "../../lib/paylater"
import { resolveProviderOptions } from "../../providers/paylater/options"

/**
 * A read-only status question for a session Medusa already settled (paid, declined, expired). Such
 * sessions are never authorized again (Medusa returns a recorded payment at once), so the provider
 * is not asked through the payment module; this uses the same options the provider was registered
 * with, read from the app's configuration. Nothing is written to Medusa from the answer: it is only
 * compared with the store's records and shown to staff.
 */

const clients = new Map<string, PayLaterClient>()

type Row = Record<string, any>

function providerOptionsFor(container: MedusaContainer, providerId: string): unknown | null {
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

/** PayLater's status for `orderId`, or null when the provider's options are not found or PayLater did not answer. */
export async function askPayLaterStatus(
  container: MedusaContainer,
  providerId: string,
  orderId: string
): Promise<PaymentStatus | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    let client = clients.get(providerId)
    if (!client) {
      const options = providerOptionsFor(container, providerId)
      if (!options) {
        logger.warn(`PayLater activity: no options found for ${providerId}; status not checked`)
        return null
      }
      client = new PayLaterClient(resolveProviderOptions(options).config, {
        logger: { info: (m) => logger.debug(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
      })
      clients.set(providerId, client)
    }
    return await client.getPaymentStatus(orderId)
  } catch (error) {
    logger.warn(`PayLater activity: status of ${orderId} unavailable: ${(error as Error)?.message ?? error}`)
    return null
  }
}

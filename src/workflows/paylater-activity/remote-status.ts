import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PayLaterClient, type PaymentStatus } from "../../lib/paylater"
import { registeredProviderOptions } from "../../providers/paylater/registered-options"

/**
 * A read-only status question for a session Medusa already settled (paid, declined, expired). Such
 * sessions are never authorized again (Medusa returns a recorded payment at once), so the provider
 * is not asked through the payment module; this uses the same options the provider was registered
 * with, read from the app's configuration. Nothing is written to Medusa from the answer: it is only
 * compared with the store's records and shown to staff.
 */

const clients = new Map<string, PayLaterClient>()

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
      const options = registeredProviderOptions(container, providerId)
      if (!options) {
        logger.warn(`PayLater activity: no options found for ${providerId}; status not checked`)
        return null
      }
      client = new PayLaterClient(options.config, {
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

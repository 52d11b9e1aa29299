import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, type PaymentStatus } from "../lib/paylater"
import { clientForRegistration, registrationIdOf } from "../medusa-records/registrations"

/**
 * A read-only status question for a session Medusa already settled (paid, declined, expired). Such
 * sessions are never authorized again (Medusa returns a recorded payment at once), so the provider
 * is not asked through the payment module; this uses the client of the registration the provider
 * was configured with. Nothing is written to Medusa from the answer: it is only compared with the
 * store's records and shown to staff.
 *
 * PayLater's status for `orderId`, or null when the provider's options are not found or PayLater
 * did not answer.
 */
export async function askPayLaterStatus(
  container: MedusaContainer,
  providerId: string,
  orderId: string
): Promise<PaymentStatus | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const client = clientForRegistration(container, registrationIdOf(providerId))
  if (!client) {
    logger.warn(`PayLater activity: no options found for ${providerId}; status not checked`)
    return null
  }
  try {
    return await client.getPaymentStatus(orderId)
  } catch (error) {
    logger.warn(`PayLater activity: status of ${logRef(orderId)} unavailable: ${(error as Error)?.message ?? error}`)
    return null
  }
}

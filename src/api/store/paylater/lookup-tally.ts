import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { lookupRefusalOf } from "../../../funnel/lookup-tally"
import { ledgerModuleOf } from "../../../modules/paylater-ledger/resolve"

/**
 * Counts a look-up refusal for the admin's funnel. A tally is worth less than the shopper's answer:
 * a failed write is logged and the refusal goes out as it would have.
 */
export async function tallyLookupRefusal(scope: MedusaContainer, requestToPay: boolean, code: string): Promise<void> {
  try {
    await ledgerModuleOf(scope)?.countLookupRefusal(lookupRefusalOf(requestToPay, code, new Date()))
  } catch (error) {
    scope
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: a look-up refusal (${code}) was not counted for the funnel: ${(error as Error)?.message}`)
  }
}

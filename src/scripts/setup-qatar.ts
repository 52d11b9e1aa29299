/**
 * `npx medusa exec ./node_modules/medusa-payment-paylater/.medusa/server/src/scripts/setup-qatar.js`
 *
 * Sets a store up to try PayLater in Qatar (README section 3): QAR, a Qatar region with the PayLater
 * providers, delivery and a tax region for Qatar. Safe to run again: it only adds what is missing.
 * Prints what it changed, what it left as it was, and what a person still has to do.
 */
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { describeQatarSetup, setUpQatar } from "../setup/qatar"

export default async function setupQatar({ container }: ExecArgs): Promise<void> {
  const report = await setUpQatar(container)
  container.resolve(ContainerRegistrationKeys.LOGGER).info(describeQatarSetup(report))
}

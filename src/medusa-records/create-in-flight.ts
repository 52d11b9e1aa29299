import type { MedusaContainer } from "@medusajs/framework/types"
import { repeatedCallWorstCaseMs, sentOnceStaleAfterMs } from "../lib/paylater"
import { PAYLATER_RTP_PROVIDER } from "./provider-ids"
import { configuredRegistrations, registrationIdOf } from "./registrations"

/** No options to read for the registration (its provider refused them at boot): the default configuration's bound, with room. */
const UNKNOWN_CONFIGURATION_MS = 10 * 60_000

/**
 * How long after the later of a session's insert and its current attempt's write-ahead Medusa's
 * create of that session may still be running, with the registration's options: after the
 * write-ahead, the shopper look-up (within the eligibility timeout), one create at PayLater as slow as
 * the client can be, for a Request to Pay whose answer was lost the status read that tells whether
 * it landed (a second create writes a row of its own, which restarts the count), then Medusa's write
 * of the answer (sentOnceStaleAfterMs' margin). Past it the create's process died
 * (medusa-records/session.ts `medusaCreating`): settlement stops waiting for it. An over-estimate only
 * delays a payment a dead create left behind; an under-estimate would let Medusa's last write
 * overwrite what settlement recorded.
 */
export function createStaleAfterMs(container: MedusaContainer, providerId: string): number {
  const id = registrationIdOf(providerId)
  const options = configuredRegistrations(container).find((r) => r.id === id)?.options
  if (!options) return UNKNOWN_CONFIGURATION_MS
  const lostRequestCheck = PAYLATER_RTP_PROVIDER.test(providerId) ? repeatedCallWorstCaseMs(options.config) : 0
  return options.checkout.eligibility.timeoutMs + sentOnceStaleAfterMs(options.config) + lostRequestCheck
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { sentOnceStaleAfterMs } from "../lib/paylater"
import { configuredRegistrations, registrationIdOf } from "./registrations"

/** A registration whose options cannot be read: as long as its slowest allowed configuration could take. */
const UNKNOWN_CONFIGURATION_MS = 5 * 60_000

/**
 * How long after the later of a session's insert and its current attempt's write-ahead Medusa's create
 * of that session may still be running: the provider's shopper look-up (before the write-ahead), then
 * one create at PayLater, as slow as the registration's client can be (a second create writes a row
 * of its own, which restarts the count), and Medusa's write of the answer. Past it the create's
 * process died (medusa-records/session.ts `medusaCreating`): settlement stops waiting for it.
 */
export function createStaleAfterMs(container: MedusaContainer, providerId: string): number {
  const id = registrationIdOf(providerId)
  const options = configuredRegistrations(container).find((r) => r.id === id)?.options
  if (!options) return UNKNOWN_CONFIGURATION_MS
  return options.checkout.eligibility.timeoutMs + sentOnceStaleAfterMs(options.config)
}

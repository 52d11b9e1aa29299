import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { registeredProviderOptions } from "../../../medusa-records/registrations"
import { SHOPPER_MESSAGES } from "../../../storefront/messages"

/** The `code` of the 503 answer when another start for the same checkout did not finish in time. */
export const START_BUSY_CODE = "paylater_start_busy"

// Longer than a start can take: the shopper look-up and the push or link create, each with its timeout.
const START_LOCK_WAIT_SECONDS = 45
const START_LOCK_HOLD_MAX_MS = 60_000

/**
 * First in front of Medusa's POST /store/payment-collections/:id/payment-sessions: PayLater starts
 * for one payment collection run one at a time, across instances (Medusa's locking module). Medusa's
 * own session creation deletes the collection's other sessions without a lock, so two posts at once
 * (a double click, two tabs, a stranger) either leave two live sessions, which the order cannot both
 * hold, or fail one of them with an opaque 500 ("Could not delete all payment sessions"). In turn,
 * the second start replaces the first cleanly (its attempt stays in the ledger, asked about and
 * listed if paid after all). The lock is held until the start's handler has answered.
 */
export async function oneStartAtATime(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const body = (req.body ?? {}) as { provider_id?: unknown }
  const providerId = typeof body.provider_id === "string" ? body.provider_id : ""
  const collectionId = req.params?.id
  if (!registeredProviderOptions(req.scope, providerId) || typeof collectionId !== "string" || !collectionId) {
    return next()
  }
  let started = false
  try {
    await req.scope.resolve(Modules.LOCKING).execute(
      `paylater:start:${collectionId}`,
      () => {
        started = true
        return new Promise<void>((resolve) => {
          // Held until the start has answered (its handler ended the response), not until the client
          // went away: a cancelled request's start is still running. Capped, so a handler that never
          // answers cannot hold every later start of the checkout back.
          const cap = setTimeout(() => resolve(), START_LOCK_HOLD_MAX_MS)
          const end = res.end.bind(res) as (...args: unknown[]) => MedusaResponse
          res.end = ((...args: unknown[]) => {
            const result = end(...args)
            clearTimeout(cap)
            resolve()
            return result
          }) as MedusaResponse["end"]
          next()
        })
      },
      { timeout: START_LOCK_WAIT_SECONDS }
    )
  } catch (error) {
    if (started) {
      // The start ran and answered; only releasing the lock failed (it expires on its own).
      return
    }
    if (!res.headersSent) {
      res.status(503).json({ type: "unexpected_state", code: START_BUSY_CODE, message: SHOPPER_MESSAGES.unknown.en })
    }
  }
}

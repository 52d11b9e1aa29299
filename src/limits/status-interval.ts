import { setTimeout as sleep } from "node:timers/promises"

/**
 * How often one payment session may cost a PayLater status call, whichever road asks (the shopper's
 * return, a waiting screen's poll, a webhook's success, an admin's check, Medusa's own authorization
 * from a cart completion, its status and retrieve calls): one call per session per this many
 * seconds, across instances (status-slot.ts). Its own file so the payment provider can read it
 * without the limit store.
 */
export const STATUS_CALL_INTERVAL_SECONDS = 5

// How often a caller waiting for the slot tries it again.
const SLOT_POLL_MS = 250

/**
 * Takes this interval's slot with `take`; with `wait`, tries again until the next interval has
 * begun (for a caller that carries news or decides money and must not rest on an older answer).
 * False: another caller asks PayLater this interval (or the store is unreachable).
 */
export async function statusSlotWithin(take: () => Promise<boolean>, { wait = false }: { wait?: boolean } = {}): Promise<boolean> {
  const until = Date.now() + (wait ? STATUS_CALL_INTERVAL_SECONDS * 1000 + 500 : 0)
  for (;;) {
    if (await take()) return true
    if (Date.now() >= until) return false
    await sleep(SLOT_POLL_MS)
  }
}

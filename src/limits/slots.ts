import { randomUUID } from "node:crypto"
import type { Budget } from "../providers/paylater/limit-options"

/**
 * A rate limit on Medusa's locking module, so it holds across instances wherever the locks do
 * (in-memory for one process, locking-redis or locking-postgres for several): a budget of `max` uses
 * per window is `max` lock keys, and each use takes a free one with the window as its expiry, never
 * releasing it. Taking a key is atomic in every provider (Redis SET NX), so at most `max` uses
 * succeed within any window, even when instances race. No counter is read and then written.
 *
 * The locking module offers no way to ask when a key frees; callers say "try again later".
 */

/** The part of Medusa's locking module used here (ILockingModule). */
export interface SlotLocking {
  acquire(keys: string | string[], args?: { ownerId?: string | null; expire?: number }): Promise<void>
  release(keys: string | string[], args?: { ownerId?: string | null }): Promise<boolean>
}

export interface TakenSlot {
  key: string
  ownerId: string
}

// How the in-memory and Redis providers say "someone else holds it"; anything else is a real failure.
const HELD = /Failed to acquire lock/

/** Takes one use of `budget` under `name`; null when all of them are in use within the window. */
export async function takeSlot(locking: SlotLocking, name: string, budget: Budget): Promise<TakenSlot | null> {
  const ownerId = `paylater-limit:${randomUUID()}`
  for (let slot = 0; slot < budget.max; slot++) {
    const key = `paylater:limit:${name}:${slot}`
    try {
      await locking.acquire(key, { ownerId, expire: budget.windowSeconds })
      return { key, ownerId }
    } catch (error) {
      if (!HELD.test((error as Error)?.message ?? "")) {
        throw error
      }
    }
  }
  return null
}

/** Gives a use back (a request refused by another budget did not spend this one). */
export async function giveBack(locking: SlotLocking, taken: TakenSlot): Promise<void> {
  await locking.release(taken.key, { ownerId: taken.ownerId }).catch(() => undefined)
}

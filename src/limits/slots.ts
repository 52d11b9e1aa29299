import { randomUUID } from "node:crypto"
import type { Budget } from "../providers/paylater/limit-options"

/**
 * A rate limit on Medusa's locking module, so it holds across instances wherever the locks do
 * (in-memory for one process, locking-redis or locking-postgres for several): a budget of `max` uses
 * per window is `max` lock keys, and each use takes a free one, never releasing it. Taking a key is
 * atomic in every provider (Redis SET NX, a primary key in PostgreSQL), so at most `max` uses succeed
 * per window, even when instances race. No counter is read and then written.
 *
 * The window is in the key (a fixed bucket, floor(now / window)), not only in the lock's expiry:
 * locking-postgres never looks at `expiration` when another owner holds a key (its acquire throws,
 * and nothing deletes expired rows), so a budget kept only by expiry would never free there. The
 * expiry stays so in-memory and Redis drop old buckets. The price of a fixed window: up to 2 x max
 * uses can pass across a boundary (max at its end, max at the next one's start).
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

// How the providers say "someone else holds it": in-memory, Redis and PostgreSQL (a row exists)
// `Failed to acquire lock for key "<key>"`, PostgreSQL on an insert race `"<key>" is already locked.`
// Anything else (Redis down, a timeout) is a real failure.
const HELD = /^Failed to acquire lock for key "|" is already locked\.$/

export function isHeldByAnother(error: unknown): boolean {
  return HELD.test((error as Error)?.message ?? "")
}

/** The fixed window `now` falls in, for a key that changes when the window does. */
export function windowBucket(seconds: number, now: number = Date.now()): number {
  return Math.floor(now / (seconds * 1000))
}

/** Takes one use of `budget` under `name`; null when all of them are in use within the window. */
export async function takeSlot(
  locking: SlotLocking,
  name: string,
  budget: Budget,
  now: number = Date.now()
): Promise<TakenSlot | null> {
  const ownerId = `paylater-limit:${randomUUID()}`
  const bucket = windowBucket(budget.windowSeconds, now)
  for (let slot = 0; slot < budget.max; slot++) {
    const key = `paylater:limit:${name}:${bucket}:${slot}`
    try {
      await locking.acquire(key, { ownerId, expire: budget.windowSeconds })
      return { key, ownerId }
    } catch (error) {
      if (!isHeldByAnother(error)) {
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

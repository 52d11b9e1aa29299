import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { completionLockKey } from "./refund-plan"

// Long enough for a completion already holding the cart to finish; short enough for an admin's click.
const CART_LOCK_WAIT_SECONDS = 5

/** The cart is being completed (or its money moved) by someone else right now. */
export class CartBusyError extends Error {
  constructor(cartId: string) {
    super(`cart ${cartId} is being completed or refunded right now`)
  }
}

/**
 * Runs `work` where no completion of the cart can start or be under way: the completion lock first
 * (as settlement takes it, settlement/completion.ts), then the cart's own lock (Medusa's completion
 * takes it). Whose money a payment is cannot change inside, so a refund decided there stays right.
 * Throws CartBusyError when the locks are not free in time; any error of `work` propagates.
 */
export async function underCartMoneyLocks<T>(container: MedusaContainer, cartId: string | null, work: () => Promise<T>): Promise<T> {
  if (!cartId) return work()
  const locking = container.resolve(Modules.LOCKING)
  let started = false
  const run = () => {
    started = true
    return work()
  }
  try {
    return await locking.execute(completionLockKey(cartId), () => locking.execute(cartId, run, { timeout: CART_LOCK_WAIT_SECONDS }), {
      timeout: CART_LOCK_WAIT_SECONDS,
    })
  } catch (error) {
    if (!started) throw new CartBusyError(cartId)
    throw error
  }
}

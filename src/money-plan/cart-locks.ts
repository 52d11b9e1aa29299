import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { sessionMoneyLockKey } from "./refund-plan"

// Long enough for a completion already holding the cart to finish; short enough for an admin's click.
const CART_LOCK_WAIT_SECONDS = 5

/** The cart is being completed (or its money moved) by someone else right now. */
export class CartBusyError extends Error {
  constructor(cartId: string) {
    super(`cart ${cartId} is being completed or refunded right now`)
  }
}

/**
 * Runs `work` where no settlement of the money's session and no completion of its cart can be under
 * way: the session's settlement lock first (settle.ts holds it while it authorizes, completes the
 * cart and records the order's owner), then the cart's own lock (Medusa's completion, the
 * storefront's too, takes it). Whose money a payment is cannot change inside, so a refund decided
 * there stays right. Throws CartBusyError when the locks are not free in time; any error of `work`
 * propagates.
 */
export async function underCartMoneyLocks<T>(
  container: MedusaContainer,
  money: { session_id: string | null; cart_id: string | null },
  work: () => Promise<T>
): Promise<T> {
  const locking = container.resolve(Modules.LOCKING)
  let started = false
  const run = () => {
    started = true
    return work()
  }
  const cartId = money.cart_id
  const underCart = () => (cartId ? locking.execute(cartId, run, { timeout: CART_LOCK_WAIT_SECONDS }) : run())
  try {
    return await (money.session_id ? locking.execute(sessionMoneyLockKey(money.session_id), underCart, { timeout: CART_LOCK_WAIT_SECONDS }) : underCart())
  } catch (error) {
    if (!started) throw new CartBusyError(cartId ?? money.session_id ?? "?")
    throw error
  }
}

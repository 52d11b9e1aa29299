import { AsyncLocalStorage } from "node:async_hooks"
import { processSingleton } from "../../process-wide/process-slot"
import { CART_COMPLETION_SLOT } from "../../process-wide/slot-keys"

/**
 * Whether a provider call comes from inside a run of Medusa's cart completion. When that run fails
 * (an item sold out), its rollback refunds the session's captured payment through the provider;
 * past PayLater's 10-minute refund window that refund would go through, sending the money back
 * behind the merchant's `paidWithoutOrder: "hold"` and around Settings → PayLater. Money no order
 * holds goes back only as the money plan says, so the provider refuses a refund asked from inside a
 * completion for an attempt no order holds. The plugin's completion (medusa-effects/settlement-effects.ts)
 * and the store's `POST /store/carts/:id/complete` run inside this scope. Process-wide: the road and
 * the provider may come from two copies of this package (src/process-wide/process-slot.ts).
 */
const storage = processSingleton(CART_COMPLETION_SLOT, () => new AsyncLocalStorage<string>())

/** Runs `run` as a completion of `cartId`. */
export function withinCartCompletion<T>(cartId: string, run: () => T): T {
  return storage.run(cartId, run)
}

/** The cart whose completion this call runs inside, or null. */
export function cartCompletionInScope(): string | null {
  return storage.getStore() ?? null
}

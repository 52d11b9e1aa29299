import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { undoIfNeverPlaced } from "./unplaced-order"

/**
 * A cart completion Medusa's workflow engine abandoned part-way, and what is left of it.
 *
 * Why a run is abandoned (read in Medusa 2.21.2's @medusajs/orchestration, transaction-orchestrator.js
 * `executeSyncStep`; not caught in a trace): after creating the order, completeCartWorkflow runs five
 * steps at once (the cart and collection links, the cart's completed_at, the stock reservation, the
 * promotion usage, the order-placed event). When the reservation fails (sold out) the run turns to its
 * rollback while its siblings are still running; a sibling finishing then is marked `ok` and its
 * success handler throws (the checkpoint it saves meets the rollback: a step state change refused, or
 * a busy save retried too few times under load), and the orchestrator's failure handler asks that
 * `ok` step for `temp_failure`: `Updating Status from "ok" to "temp_failure" is not allowed`, thrown
 * out of `engine.run` itself. It is not a second run meeting the first: every run has its own
 * transaction id (`auto-<ulid>`, neither the store route nor the plugin names one), and two runs for
 * one cart never overlap, since the workflow's first step takes the cart's lock (the locking module's,
 * shared by every instance with Redis) and only its last step or its rollback gives it back.
 *
 * That is exactly what the abandoned run never does: it dies with its rollback not run (no sync step
 * of it is ever resumed), leaving the order it created (linked to the cart, the cart marked completed,
 * its stock never reserved when the item sold out) and the cart's lock held until the lock's own
 * expiry (the workflow's `ttl`, 2 minutes). Every other completion of the cart, on any road and any
 * instance, waits for that lock and gives up after 30 s meanwhile; so the caller the engine answered
 * with the refusal is the only one who can finish that rollback now, and does, as the run would have:
 * the order removed, then the lock given back.
 */

/** completeCartWorkflow's lock on the cart lives this long from its acquisition (acquireLockStep ttl). */
const COMPLETION_LOCK_TTL_MS = 120_000
/** The rollback below is finished well inside the abandoned run's lock: it takes a second or two. */
const FINISH_WITHIN_MS = COMPLETION_LOCK_TTL_MS - 60_000

/** Medusa's workflow engine refusing a step's state change: the run was abandoned part-way. */
export function isEngineRefusal(error: unknown): boolean {
  return /Updating (Status|State) from "[a-z_]+" to "[a-z_]+" is not allowed/.test(String((error as Error)?.message ?? error))
}

/**
 * Finishes the rollback of a completion run of `cartId` started at `startedAt` that the engine
 * abandoned: its order, if Medusa's checks never placed it (its stock never reserved, no capture, no
 * other method's payment: unplaced-order.ts), is removed and the cart opened again. Only while the run's
 * lock is certainly still its own (its 2-minute lease, taken after `startedAt`, has not run out), or
 * when the lock is free and taken here: never beside another completion of the cart. True when an
 * order was removed.
 */
export async function finishAbandonedCompletion(container: MedusaContainer, cartId: string, startedAt: number): Promise<boolean> {
  if (Date.now() - startedAt > FINISH_WITHIN_MS) return false
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [
    {
      data: [link],
    },
    {
      data: [cart],
    },
  ] = await Promise.all([
    query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } }),
    query.graph({ entity: "cart", fields: ["id", "payment_collection.id"], filters: { id: cartId } }),
  ])
  const orderId = (link as { order_id?: string } | undefined)?.order_id
  const collectionId = (cart as { payment_collection?: { id?: string } } | undefined)?.payment_collection?.id
  if (!orderId || !collectionId) return false
  const locking = container.resolve(Modules.LOCKING)
  // The lock free (the run gave it back before dying): held here for the rollback, as any other caller would.
  const ownerId = `paylater:abandoned:${randomUUID()}`
  let mine = false
  try {
    await locking.acquire(cartId, { ownerId, expire: 30 })
    mine = true
  } catch {
    // Held: by the abandoned run, whose lease outlives this check (no other completion can take it).
  }
  let undone = false
  try {
    undone = await undoIfNeverPlaced(container, { order_id: orderId, cart_id: cartId, payment_collection_id: collectionId })
    return undone
  } finally {
    if (mine) await locking.release(cartId, { ownerId })
    // Its order was still there: the run died before its rollback (which removes the order, then
    // gives the lock back) and before its last step, so the lock is the run's, taken without an owner
    // as acquireLockStep takes it. Given back as its rollback would, so the completions waiting for
    // it (the shopper's return, the notification, on any instance) go on now, not in 2 minutes.
    else if (undone) await locking.release(cartId)
  }
}

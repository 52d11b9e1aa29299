import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { completionBackoffOf, completionDue } from "../modules/paylater-ledger/attempt-state"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderOwner } from "../medusa-records/order-owner"
import { completionBlockedByRefund } from "../paid-without-order/listing"
import { completionLockKey } from "../paid-without-order/refund-plan"
import type { PayLaterSessionContext } from "../medusa-records/session"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { completePaidCart } from "./medusa-effects"
import { crashPoint } from "../faults/crash-point"

// Long enough for a completion or a refund call already holding it to finish.
const COMPLETION_LOCK_WAIT_SECONDS = 30

export type CompletionOutcome =
  /** `held_by`: the attempt the order's money was recorded for (recordOrderOwner's answer). */
  | { order_id: string; held_by: AttemptRecord | null | undefined }
  | { order_id: null; error: string; tried: boolean }

/**
 * Completes a paid cart unless its payment is being (or was) refunded, and not more often than the
 * attempt's backoff allows after a failure (a sold-out cart is not completed again on every poll).
 * In the cart's completion critical section (`completionLockKey`, which the automatic refund takes
 * too), and in the same section the order's owner is recorded from Medusa's payment record.
 */
export async function completeUnlessRefunded(container: MedusaContainer, context: PayLaterSessionContext): Promise<CompletionOutcome> {
  const cartId = context.cart_id!
  const orderId = context.attempt?.paylater_order_id
  const backoff = completionBackoffOf(context.attempt)
  if (!completionDue(backoff, new Date())) {
    return { order_id: null, error: backoff!.last_error, tried: false }
  }
  let entered = false
  try {
    return await container.resolve(Modules.LOCKING).execute(
      completionLockKey(cartId),
      async (): Promise<CompletionOutcome> => {
        entered = true
        if (await completionBlockedByRefund(container, orderId)) {
          // Its money is going (or went) back to the shopper: an order now would ship unpaid goods.
          return { order_id: null, error: "its payment is refunded (paid without an order)", tried: false }
        }
        const completion = await completePaidCart(container, cartId)
        if (completion.order_id === null) {
          if (orderId) await ledgerModuleOf(container)?.recordCompletionFailure(orderId, completion.error)
          return { ...completion, tried: true }
        }
        crashPoint("complete:after-order")
        // Whose money it is, from Medusa's payment record, before anything else can see the order.
        const held_by = await recordOrderOwner(container, { order_id: completion.order_id, payment_collection_id: context.payment_collection_id })
        return { order_id: completion.order_id, held_by }
      },
      { timeout: COMPLETION_LOCK_WAIT_SECONDS }
    )
  } catch (error) {
    if (entered) throw error
    return { order_id: null, error: "a completion or refund of this cart is under way", tried: false }
  }
}

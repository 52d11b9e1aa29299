import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { completionBackoffOf, completionDue } from "../modules/paylater-activity/attempt-state"
import { activityModuleOf } from "../modules/paylater-activity/resolve"
import { completionBlockedByRefund } from "../paid-without-order/listing"
import { completionLockKey } from "../paid-without-order/refund-plan"
import type { PayLaterSessionContext } from "../medusa-records/session"
import { completePaidCart } from "./transitions"

// Long enough for a completion or a refund call already holding it to finish.
const COMPLETION_LOCK_WAIT_SECONDS = 30

export type CompletionOutcome = { order_id: string } | { order_id: null; error: string; tried: boolean }

/**
 * Completes a paid cart unless its payment is being (or was) refunded, and not more often than the
 * attempt's backoff allows after a failure (a sold-out cart is not completed again on every poll).
 */
export async function completeUnlessRefunded(container: MedusaContainer, context: PayLaterSessionContext): Promise<CompletionOutcome> {
  const cartId = context.cart_id!
  // A session with no ledger row (started before the upgrade filled it) is still blocked by a
  // refund listed under the order id its data names: reading session data may only ever stop an order.
  const orderId =
    context.attempt?.paylater_order_id ??
    (typeof context.session_data.paylater_order_id === "string" ? context.session_data.paylater_order_id : undefined)
  const backoff = completionBackoffOf(context.attempt?.detail)
  if (!completionDue(backoff, new Date())) {
    return { order_id: null, error: backoff!.last_error, tried: false }
  }
  try {
    return await container.resolve(Modules.LOCKING).execute(
      completionLockKey(cartId),
      async (): Promise<CompletionOutcome> => {
        if (await completionBlockedByRefund(container, orderId)) {
          // Its money is going (or went) back to the shopper: an order now would ship unpaid goods.
          return { order_id: null, error: "its payment is refunded (paid without an order)", tried: false }
        }
        const completion = await completePaidCart(container, cartId)
        if (completion.order_id === null) {
          if (orderId) await activityModuleOf(container)?.recordCompletionFailure(orderId, completion.error)
          return { ...completion, tried: true }
        }
        return completion
      },
      { timeout: COMPLETION_LOCK_WAIT_SECONDS }
    )
  } catch {
    return { order_id: null, error: "a completion or refund of this cart is under way", tried: false }
  }
}

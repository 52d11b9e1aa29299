import type { MedusaContainer } from "@medusajs/framework/types"
import { completionBackoffOf, completionDue } from "../modules/paylater-ledger/attempt-state"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderOwner } from "../medusa-records/order-owner"
import { moneyGivenBack } from "../money-plan/facts"
import type { PayLaterSessionContext } from "../medusa-records/session"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { completePaidCart } from "./medusa-effects"
import { crashPoint } from "../faults/crash-point"

export type CompletionOutcome =
  /** `held_by`: the attempt the order's money was recorded for (recordOrderOwner's answer). */
  | { order_id: string; held_by: AttemptRecord | null | undefined }
  | { order_id: null; error: string; tried: boolean }

/**
 * Completes a paid cart unless its payment is being (or was) refunded, and not more often than the
 * attempt's backoff allows after a failure (a sold-out cart is not completed again on every poll),
 * then records the order's owner from Medusa's payment record. Only called by settlement, under the
 * session's settlement lock (`sessionMoneyLockKey`), which the refunds of the session's money take
 * too (paid-without-order/cart-locks.ts): the refund check, the completion and the owner record are
 * one critical section with them, without a lock of their own.
 */
export async function completeUnlessRefunded(container: MedusaContainer, context: PayLaterSessionContext): Promise<CompletionOutcome> {
  const cartId = context.cart_id!
  const orderId = context.attempt?.paylater_order_id
  const backoff = completionBackoffOf(context.attempt)
  if (!completionDue(backoff, new Date())) {
    return { order_id: null, error: backoff!.last_error, tried: false }
  }
  const ledger = ledgerModuleOf(container)
  if (orderId && ledger && (await moneyGivenBack(container, ledger, orderId))) {
    // Its money is going (or went) back to the shopper: an order now would ship unpaid goods.
    return { order_id: null, error: "its payment is refunded (paid without an order)", tried: false }
  }
  const completion = await completePaidCart(container, cartId)
  if (completion.order_id === null) {
    if (orderId) await ledger?.recordCompletionFailure(orderId, completion.error)
    return { ...completion, tried: true }
  }
  crashPoint("complete:after-order")
  // Whose money it is, from Medusa's payment record, before anything else can see the order.
  const held_by = await recordOrderOwner(container, { order_id: completion.order_id, payment_collection_id: context.payment_collection_id }, new Date(), context.attempt)
  return { order_id: completion.order_id, held_by }
}

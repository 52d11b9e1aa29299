import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderOwner } from "../medusa-effects/order-owner"
import type { PayLaterSessionContext } from "../medusa-records/session"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { completePaidCart } from "../medusa-effects/settlement-effects"
import { crashPoint } from "../faults/crash-point"

export type CompletionOutcome =
  /** `held_by`: the attempt the order's money was recorded for (recordOrderOwner's answer). */
  | { order_id: string; held_by: AttemptRecord | null | undefined }
  | { order_id: null; error: string }

/**
 * Completes a paid cart, then records the order's owner from Medusa's payment record. Whether it is
 * completed now (the attempt's backoff after a failure, and never once its money went back) is
 * settlement's decision (settlement-step.ts `completionStep`, on the money plan). Only called by
 * settlement, under the session's settlement lock (`sessionMoneyLockKey`), which the refunds of the
 * session's money take too (money-plan/cart-locks.ts): the refund check, the completion and the
 * owner record are one critical section with them, without a lock of their own.
 */
export async function completeRecordingOwner(container: MedusaContainer, context: PayLaterSessionContext): Promise<CompletionOutcome> {
  const cartId = context.cart_id!
  const orderId = context.attempt?.paylater_order_id
  const completion = await completePaidCart(container, cartId)
  if (completion.order_id === null) {
    if (orderId) await ledgerModuleOf(container)?.recordCompletionFailure(orderId, completion.error)
    return completion
  }
  crashPoint("complete:after-order")
  // Whose money it is, from Medusa's payment record, before anything else can see the order.
  const held_by = await recordOrderOwner(container, { order_id: completion.order_id, payment_collection_id: context.payment_collection_id }, new Date(), context.attempt)
  return { order_id: completion.order_id, held_by }
}

import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, type PaymentStatus } from "../lib/paylater"
import { saveTombstones, type SessionTombstone } from "../providers/paylater/tombstones"
import { recordAutomaticCheck } from "../activity/record"
import { activityModuleOf } from "../modules/paylater-activity/resolve"
import { flagPaidAttempt, flagPaidWithoutOrder, PAID_WITHOUT_ORDER_NEXT_STEP, recordedPaymentOf } from "../recovery/paid-without-order"
import { clientForRegistration } from "../settlement/registrations"
import { settlePayLaterSession, type SettlementResult } from "../settlement/settle"
import type { Outcome, SessionCandidate, TombstoneCandidate } from "./select"

/** The run's report for one settled session. */
export function outcomeOf(result: SettlementResult): Outcome {
  switch (result.outcome) {
    case "unknown_session":
      return "gone"
    case "paid":
    case "paid_without_order":
    case "unavailable":
      return result.outcome
    case "failed":
      return result.reason === "expired" ? "expired" : "failed"
    case "pending":
      return result.asked ? "pending" : "skipped"
  }
}

/**
 * A live session, settled like any other signal with one difference: our clock's "expired" does
 * not stop the question (only PayLater's answer ends a payment). Not throttled: runs are minutes
 * apart and one at a time (run lock); exactly-once rests on the settlement's locks.
 */
export async function reconcileSession(container: MedusaContainer, candidate: SessionCandidate): Promise<Outcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const result = await settlePayLaterSession(container, {
    session_id: candidate.session_id,
    signal: "reconciliation",
    ask_past_expiry: true,
  })
  const outcome = outcomeOf(result)
  recordAutomaticCheck(container, result, "reconciliation")
  if (result.outcome === "paid_without_order") {
    // Also listed by the settlement's announcement; repeated here (idempotent) in case that was lost.
    await flagPaidWithoutOrder(container, candidate.session_id, { signal: "reconciliation", error: result.error })
    logger.error(
      `PayLater: payment ${logRef(result.session.session_data.paylater_order_id ?? result.session.session_id)} (PayLater ref ${result.session.session_data.paylater_ref ?? "?"}, ${result.session.session_data.amount ?? "?"} QAR) is paid and recorded, but cart ${logRef(result.cart_id)} could not be turned into an order (Settings → PayLater lists it). ` +
        PAID_WITHOUT_ORDER_NEXT_STEP
    )
  } else if (outcome === "paid" && result.changed) {
    logger.info(`PayLater reconciliation: ${logRef(candidate.session_id)} was paid at PayLater; processed as its webhook would have been`)
  }
  return outcome
}

/**
 * A deleted session's payment, on Settings → PayLater. Not refunded automatically: nothing in Medusa
 * holds it (no session, no payment), and the operator may rather place the order by hand.
 */
async function flagOrphan(container: MedusaContainer, candidate: TombstoneCandidate, paylaterRef: string | null): Promise<void> {
  const t = candidate.tombstone
  await activityModuleOf(container)?.flagForAttention("orphaned", {
    dedupe_key: `orphaned:${t.paylater_order_id}`,
    summary: `Paid ${t.amount} QAR at PayLater (${t.paylater_order_id}) after its payment session was deleted (the cart changed or another method was chosen). ${
      candidate.order_id ? "The cart was completed with another payment, so the shopper paid twice" : "No order was placed for this money"
    }: refund it in PayLater's merchant portal (from 10 minutes after the payment) or place the order by hand, then mark this resolved.`,
    amount: t.amount,
    paylater_order_id: t.paylater_order_id,
    session_id: t.session_id,
    payment_collection_id: candidate.payment_collection_id,
    cart_id: candidate.cart_id,
    order_id: candidate.order_id,
    detail: { provider_id: t.provider_id, paylater_ref: paylaterRef, deleted_at: t.deleted_at },
  })
}

async function saveOnCollection(container: MedusaContainer, collectionId: string, change: SessionTombstone): Promise<boolean> {
  const payment = container.resolve(Modules.PAYMENT)
  return saveTombstones(
    {
      read: async () => (await payment.listPaymentCollections({ id: collectionId }, { select: ["id", "metadata"] }))[0]?.metadata,
      write: async (metadata) => {
        await payment.updatePaymentCollections(collectionId, { metadata })
      },
    },
    [change]
  )
}

/**
 * A deleted session. Its link or request could still be paid until it expired, and nothing in Medusa
 * can take that payment any more (the session, and with it the amount it was for, is gone; the cart
 * may have changed or been paid another way). A paid one is logged as an error with everything an
 * operator needs and listed on Settings → PayLater, once; nothing is placed or refunded automatically.
 * A superseded attempt of a live session (updatePayment) is paid-without-order instead, and follows
 * the merchant's paidWithoutOrder option like any other.
 */
export async function reconcileTombstone(
  container: MedusaContainer,
  candidate: TombstoneCandidate,
  registrationId: string,
  now: Date = new Date()
): Promise<Outcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const t = candidate.tombstone
  const client = clientForRegistration(container, registrationId)
  if (!client) {
    logger.warn(`PayLater reconciliation: no options found for provider ${t.provider_id}; deleted session ${logRef(t.session_id)} not checked`)
    return "unavailable"
  }
  let status: PaymentStatus
  try {
    status = await client.getPaymentStatus(t.paylater_order_id)
  } catch {
    return "unavailable"
  }
  const stamp = now.toISOString()
  // Not saved: asked again next run, and flagging again finds the same item.
  const markPaid = () =>
    saveOnCollection(container, candidate.payment_collection_id, { ...t, outcome: "paid", settled_at: stamp, paylater_ref: status.payLaterOrderId })
  if (status.code === 2 && t.superseded_by) {
    // Paid on a link or request its session had replaced: money without an order, like any other.
    const flagged = await flagPaidAttempt(container, {
      paylater_order_id: t.paylater_order_id,
      session_id: t.session_id,
      provider_id: t.provider_id,
      amount: t.amount,
      paid_at: now,
      payment_collection_id: candidate.payment_collection_id,
      cart_id: candidate.cart_id,
      order_id: candidate.order_id,
      reason: `it was paid on an earlier link or request of session ${t.session_id}, replaced by ${t.superseded_by} for a new amount`,
      detail: { signal: "reconciliation", paylater_ref: status.payLaterOrderId ?? null, superseded_by: t.superseded_by },
    })
    logger.error(`PayLater: ${flagged?.summary ?? `superseded attempt ${logRef(t.paylater_order_id)} is paid, ${t.amount} QAR`}`)
    await markPaid()
    return "paid_without_order"
  }
  if (status.code === 2 && (await recordedPaymentOf(container, t.session_id))) {
    // Medusa recorded the payment, then deleted its session: cart completion failed after the
    // payment (Medusa's compensation deletes the session). Paid without an order, not orphaned.
    await flagPaidWithoutOrder(container, t.session_id, { signal: "reconciliation" })
    await markPaid()
    return "paid_without_order"
  }
  if (status.code === 2) {
    await flagOrphan(container, candidate, status.payLaterOrderId ?? null)
    logger.error(
      `PayLater: ORPHANED PAYMENT. PayLater order ${logRef(t.paylater_order_id)} (PayLater ref ${status.payLaterOrderId ?? "?"}) is PAID, ${t.amount} QAR, ` +
        `but its Medusa payment session ${logRef(t.session_id)} was deleted on ${t.deleted_at} (the cart changed or another payment method was chosen). ` +
        `Cart: ${candidate.cart_id ? logRef(candidate.cart_id) : "none"}; order: ${candidate.order_id ?? "none (the cart has no order)"}; the full ids are on Settings → PayLater. ` +
        (candidate.order_id
          ? `The cart was completed with another payment, so the shopper has paid twice: refund ${logRef(t.paylater_order_id)} in PayLater's merchant portal.`
          : `No order was placed for this money: contact the shopper, then create the order by hand (e.g. a draft order) or refund ${logRef(t.paylater_order_id)} in PayLater's merchant portal.`) +
        ` PayLater accepts a refund from 10 minutes after the payment. Reported once.`
    )
    if (!(await markPaid())) {
      logger.error(`PayLater reconciliation: could not mark orphaned payment ${logRef(t.paylater_order_id)} as reported; it will be reported again`)
    }
    return "orphan_paid"
  }
  if (status.code === 3) {
    await saveOnCollection(container, candidate.payment_collection_id, { ...t, outcome: "failed", settled_at: stamp })
    return "failed"
  }
  await saveOnCollection(container, candidate.payment_collection_id, { ...t, checked_at: stamp } as SessionTombstone)
  return "pending"
}

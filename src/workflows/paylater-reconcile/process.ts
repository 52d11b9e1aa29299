import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { PayLaterClient, type PayLaterApi, type PaymentStatus } from "../../lib/paylater"
import type { ResolvedProviderOptions } from "../../providers/paylater/options"
import { saveTombstones, type SessionTombstone } from "../../providers/paylater/tombstones"
import { checkEvent } from "../paylater-activity/events"
import { recordPayLaterActivity } from "../paylater-activity/record"
import { decidePaymentState } from "../paylater-payment-state/decide"
import { refreshSessionFromPayLater } from "../paylater-payment-state/refresh"
import { readSessionContext, type PayLaterSessionContext } from "../paylater-payment-state/session-context"
import type { Outcome, SessionCandidate, TombstoneCandidate } from "./select"

/**
 * A live session: exactly what the waiting screen's refresh does (ask PayLater by authorizing the
 * session under the cart lock; on success run processPaymentWorkflow `authorized`, as a webhook
 * would), with two differences: our clock's "expired" does not stop the question (only PayLater's
 * answer ends a payment), and the outcome is read back for the run's report.
 */
export async function reconcileSession(container: MedusaContainer, candidate: SessionCandidate): Promise<Outcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const before = await readSessionContext(container, candidate.session_id)
  if (!before) {
    return "gone"
  }
  // Not throttled: runs are minutes apart and one at a time (run lock), so the per-session refresh
  // slot would only make a run skip a session a screen polled in the last seconds. Exactly-once
  // rests on the cart lock and Medusa's idempotent authorization, which this path takes as is.
  const asked = await refreshSessionFromPayLater(container, before, null, { askPastExpiry: true })
  const after = (await readSessionContext(container, candidate.session_id)) ?? before
  const outcome = outcomeOf(before, after, asked)
  if (asked) {
    // For the admin's order history (best effort, not awaited): one entry per answer, repeats counted.
    void recordPayLaterActivity(
      container,
      checkEvent({
        session_id: after.session_id,
        paylater_order_id: after.session_data.paylater_order_id ?? null,
        source: "reconciliation",
        paylater_status: outcome === "unavailable" ? "unreachable" : (after.session_data.paylater_status ?? "unknown"),
        state: decidePaymentState(after, new Date()).status,
        processed: outcome === "paid" && before.session_status !== after.session_status,
      })
    )
  }
  if (outcome === "paid_without_order") {
    logger.error(
      `PayLater: payment ${after.session_data.paylater_order_id ?? after.session_id} (PayLater ref ${after.session_data.paylater_ref ?? "?"}, ${after.session_data.amount ?? "?"} QAR) is paid and recorded, but cart ${after.cart_id} could not be turned into an order. ` +
        `Reconciliation retries on every run; if this repeats, check the cart (stock, shipping) and complete it, or refund the payment in PayLater's merchant portal.`
    )
  } else if (outcome === "paid") {
    logger.info(`PayLater reconciliation: ${after.session_id} was paid at PayLater; processed as its webhook would have been`)
  }
  return outcome
}

export function outcomeOf(before: PayLaterSessionContext, after: PayLaterSessionContext, asked: boolean): Outcome {
  if (after.session_status === "authorized" || after.session_status === "captured") {
    if (after.cart_id && !after.order_id) return "paid_without_order"
    return "paid"
  }
  if (after.session_status === "error" || after.session_status === "canceled" || after.session_data.paylater_status_code === 3) {
    return after.session_data.paylater_failure_reason === "expired" ? "expired" : "failed"
  }
  if (!asked) {
    return "skipped"
  }
  // Medusa writes what PayLater said onto the session even when it refuses to authorize.
  const answered = after.session_data.paylater_status_checked_at !== before.session_data.paylater_status_checked_at
  return answered ? "pending" : "unavailable"
}

const clients = new Map<string, PayLaterApi>()

/** One client (and one cached token) per registration for the life of the process. */
function clientFor(registrationId: string, options: ResolvedProviderOptions, logger: Logger): PayLaterApi {
  const key = `${registrationId}:${options.config.apiBaseUrl}:${options.config.clientId}:${options.config.outletId}`
  let client = clients.get(key)
  if (!client) {
    client = new PayLaterClient(options.config, {
      logger: {
        debug: (m) => logger.debug?.(m),
        info: (m) => logger.info(m),
        warn: (m) => logger.warn(m),
        error: (m) => logger.error(m),
      },
    })
    clients.set(key, client)
  }
  return client
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
 * operator needs, once; nothing is placed or refunded automatically (see docs in the report).
 */
export async function reconcileTombstone(
  container: MedusaContainer,
  candidate: TombstoneCandidate,
  options: ResolvedProviderOptions | null,
  registrationId: string,
  now: Date = new Date()
): Promise<Outcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const t = candidate.tombstone
  if (!options) {
    logger.warn(`PayLater reconciliation: no options found for provider ${t.provider_id}; deleted session ${t.session_id} not checked`)
    return "unavailable"
  }
  let status: PaymentStatus
  try {
    status = await clientFor(registrationId, options, logger).getPaymentStatus(t.paylater_order_id)
  } catch {
    return "unavailable"
  }
  const stamp = now.toISOString()
  if (status.code === 2) {
    logger.error(
      `PayLater: ORPHANED PAYMENT. PayLater order ${t.paylater_order_id} (PayLater ref ${status.payLaterOrderId ?? "?"}) is PAID, ${t.amount} QAR, ` +
        `but its Medusa payment session ${t.session_id} was deleted on ${t.deleted_at} (the cart changed or another payment method was chosen). ` +
        `Cart: ${candidate.cart_id ?? "none"}; order: ${candidate.order_id ?? "none (the cart has no order)"}; payment collection: ${candidate.payment_collection_id}. ` +
        (candidate.order_id
          ? `The cart was completed with another payment, so the shopper has paid twice: refund ${t.paylater_order_id} in PayLater's merchant portal.`
          : `No order was placed for this money: contact the shopper, then create the order by hand (e.g. a draft order) or refund ${t.paylater_order_id} in PayLater's merchant portal.`) +
        ` PayLater accepts a refund from 10 minutes after the payment. Reported once.`
    )
    const saved = await saveOnCollection(container, candidate.payment_collection_id, {
      ...t,
      outcome: "paid",
      settled_at: stamp,
      paylater_ref: status.payLaterOrderId,
    })
    if (!saved) {
      logger.error(`PayLater reconciliation: could not mark orphaned payment ${t.paylater_order_id} as reported; it will be reported again`)
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

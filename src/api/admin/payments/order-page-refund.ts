import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { attemptsOfPayment } from "../../../medusa-records/payment-attempt"
import { collectionsOfOrder } from "../../../medusa-records/owners"
import { PAYLATER_PROVIDER } from "../../../medusa-records/session"
import { ledgerModuleOf } from "../../../modules/paylater-ledger/resolve"
import { medusaRefundOf } from "../../../modules/paylater-ledger/money-plan"
import { whoseMoney } from "../../../medusa-effects/order-owner"

/**
 * In front of Medusa's two admin roads that refund a payment and book the refund on its order
 * (api/middlewares.ts, after Medusa's admin authentication): the order page's Refund
 * (`POST /admin/payments/:id/refund`, refundPaymentWorkflow) and the order's cancel
 * (`POST /admin/orders/:id/cancel`, which refunds every captured payment of the order's collections
 * and adds a credit line for them). A PayLater payment goes through them only when the money plan
 * says the order holds its money (`medusa_refund`); money extra to the order goes back from Settings
 * → PayLater. The provider cannot tell: Medusa hands it the payment's data, not the order's records.
 * Only looks (no lock is held here): the refund's own aftermath (the payment.refunded subscriber's
 * money plan) records an order's ownership, so the list closes the item as refunded, not as "held".
 */

/** Why Medusa may not refund this PayLater payment as its order's money, or null (not PayLater's, or the order's). */
async function refusalOf(container: MedusaContainer, paymentId: string): Promise<string | null> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  for (const key of await attemptsOfPayment(container, paymentId)) {
    const row = await ledger.findAttempt(key)
    const step = row ? medusaRefundOf(await whoseMoney(container, row, new Date(), { record: false })) : null
    if (step?.step === "refuse") return step.why
  }
  return null
}

export async function refundOnlyTheOrdersMoney(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const paymentId = req.params?.id
    const why = typeof paymentId === "string" && paymentId ? await refusalOf(req.scope, paymentId) : null
    if (why) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, why)
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * The cancel refunds what is captured and not yet refunded of every payment on the order's
 * collections: an extra PayLater payment there would be refunded as the order's money (and a
 * refused refund, PayLater's first 10 minutes, would fail the whole cancel after the others went
 * back). Refused until that money went back from Settings → PayLater; then the cancel goes on.
 */
export async function cancelOnlyWithTheOrdersMoney(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const orderId = req.params?.id
    for (const paymentId of typeof orderId === "string" && orderId ? await refundableByCancel(req.scope, orderId) : []) {
      const why = await refusalOf(req.scope, paymentId)
      if (why) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `${why} Cancelling the order would refund it as the order's money: refund it from Settings → PayLater first, then cancel.`)
    }
    next()
  } catch (error) {
    next(error)
  }
}

/** The order's PayLater payments the cancel would refund: captured, and not refunded in full. */
async function refundableByCancel(container: MedusaContainer, orderId: string): Promise<string[]> {
  const collectionIds = await collectionsOfOrder(container, orderId)
  if (!collectionIds.length) return []
  const payments = await container.resolve(Modules.PAYMENT).listPayments({ payment_collection_id: collectionIds } as never, {
    select: ["id", "provider_id"],
    relations: ["captures", "refunds"],
  })
  const sum = (rows: Array<{ raw_amount?: unknown; amount?: unknown }> | undefined) =>
    (rows ?? []).filter(Boolean).reduce((total, r) => MathBN.add(total, (r.raw_amount ?? r.amount) as never), MathBN.convert(0))
  return payments
    .filter((p) => PAYLATER_PROVIDER.test(p.provider_id) && MathBN.gt(MathBN.sub(sum(p.captures as never), sum(p.refunds as never)), 0))
    .map((p) => p.id)
}

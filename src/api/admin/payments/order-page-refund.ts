import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { attemptsOfPayment } from "../../../medusa-records/payment-attempt"
import { ledgerModuleOf } from "../../../modules/paylater-ledger/resolve"
import { planMoney } from "../../../modules/paylater-ledger/money-plan"
import { moneyFactsOf } from "../../../money-plan/facts"

/**
 * In front of Medusa's POST /admin/payments/:id/refund (the order page's Refund; api/middlewares.ts,
 * after Medusa's admin authentication): a PayLater payment is refunded there only when the money plan
 * says the order holds it (MedusaRefundStep). The provider cannot tell: Medusa hands it the payment's
 * data, not the order's records. It only looks (no lock is held here): an order's ownership is
 * recorded by the refund's own aftermath (the payment.refunded subscriber's money plan), so the
 * list closes the item as refunded, not as "held, nothing refunded". Other payments pass untouched.
 */
export async function refundOnlyTheOrdersMoney(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const paymentId = req.params?.id
    const ledger = ledgerModuleOf(req.scope)
    if (typeof paymentId !== "string" || !paymentId || !ledger) return next()
    for (const key of await attemptsOfPayment(req.scope, paymentId)) {
      const row = await ledger.findAttempt(key)
      if (!row) continue
      const step = planMoney(await moneyFactsOf(req.scope, ledger, row, new Date(), { record: false })).medusa_refund
      if (step.step === "refuse") throw new MedusaError(MedusaError.Types.NOT_ALLOWED, step.why)
    }
    next()
  } catch (error) {
    next(error)
  }
}

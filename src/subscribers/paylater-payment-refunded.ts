import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PaymentEvents } from "@medusajs/framework/utils"
import { attemptsOfPayment } from "../medusa-records/payment-attempt"
import { convergeMoneyOrLeaveToRecovery } from "../money-plan/apply"

/**
 * Medusa's own refund of a PayLater payment (the order page's Refund, `refundPaymentWorkflow`) goes
 * through the money plan as soon as Medusa announces it: the provider's refundPayment sent it to
 * PayLater and recorded it in the ledger, and this applies the plan to both records. That road
 * refunds only the order's own money (api/admin/payments/order-page-refund.ts refuses the rest), so
 * the order's records are left as Medusa wrote them; the plan records the order as the owner and
 * closes an item about that money as refunded when all of it went back. (The order's cancel
 * announces no refund; the recovery job converges it.) A busy cart
 * or a failure is left to the recovery job, which converges every refunded attempt
 * (reconciliation/given-back-money.ts).
 */
export default async function payLaterPaymentRefundedHandler({ event, container }: SubscriberArgs<{ id: string }>): Promise<void> {
  const paymentId = event.data?.id
  if (!paymentId) return
  for (const paylaterOrderId of await attemptsOfPayment(container, paymentId)) {
    await convergeMoneyOrLeaveToRecovery(container, paylaterOrderId)
  }
}

export const config: SubscriberConfig = {
  event: PaymentEvents.REFUNDED,
  context: { subscriberId: "paylater-payment-refunded" },
}

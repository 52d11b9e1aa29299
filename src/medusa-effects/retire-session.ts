import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { RETIRE_SESSION_CONTEXT_KEY } from "../modules/paylater-ledger/ledger-port"

/**
 * Medusa's session set to `canceled`: its cart completion takes only pending, authorized or captured
 * sessions, so no completion road (the storefront's own included) can place an order with it, and a
 * new payment session replaces it as usual. The provider is told not to touch PayLater (context key),
 * since Medusa's update asks the provider first.
 */
export async function retireSession(container: MedusaContainer, sessionId: string): Promise<void> {
  const payment = container.resolve(Modules.PAYMENT)
  const [session] = await payment.listPaymentSessions({ id: sessionId }, { select: ["id", "amount", "currency_code", "data", "status"], take: 1 })
  if (!session) return
  await payment.updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: session.data ?? {},
    status: "canceled",
    context: { [RETIRE_SESSION_CONTEXT_KEY]: true } as never,
  })
}

/**
 * Medusa's payment canceled (`canceled_at`): the order page then offers no Capture for money PayLater
 * gave back, and Medusa's totals never count it. Medusa asks the provider first; ours calls nothing
 * at PayLater on a cancel (base.ts cancelPayment).
 */
export async function retirePayment(container: MedusaContainer, paymentId: string): Promise<void> {
  await container.resolve(Modules.PAYMENT).cancelPayment(paymentId)
}

/** What Medusa counts as an order's money: its transactions, and the payment each capture is of. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

export async function orderMoney(container: MedusaContainer, orderId: string) {
  const transactions = await container.resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId }, { select: ["amount", "reference", "reference_id"] })
  const captureIds = transactions.filter((t) => t.reference === "capture").map((t) => t.reference_id as string)
  const captures = captureIds.length ? await container.resolve(Modules.PAYMENT).listCaptures({ id: captureIds }, { relations: ["payment"] }) : []
  const payments = captures.map((c) => (c as unknown as { payment: { provider_id: string; payment_session_id: string } }).payment)
  return {
    total: transactions.reduce((sum, t) => sum + Number(t.amount), 0),
    providers: payments.map((p) => p.provider_id),
    sessions: payments.map((p) => p.payment_session_id),
  }
}

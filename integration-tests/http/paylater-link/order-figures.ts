/**
 * What Medusa's admin shows of an order's money: its total (after credit lines), what it still
 * owes or is owed (summary.pending_difference), its credit lines, and the sum of its transactions
 * (orderMoney). An extra payment going back must change none of them.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { orderMoney } from "./order-money"

type Api = { get: (url: string, config?: object) => Promise<{ status: number; data: any }> }

export async function orderFigures(api: Api, admin: object, container: MedusaContainer, orderId: string) {
  const answer = await api.get(`/admin/orders/${orderId}?fields=id,total,summary,*credit_lines`, { ...admin, validateStatus: () => true })
  if (answer.status !== 200) throw new Error(`order ${orderId}: ${answer.status} ${JSON.stringify(answer.data)}`)
  const order = answer.data.order
  return {
    total: Number(order.total),
    pending_difference: Number(order.summary?.pending_difference),
    credit_lines: (order.credit_lines ?? []).map((line: { amount: unknown }) => Number(line.amount)),
    transactions: (await orderMoney(container, orderId)).total,
  }
}

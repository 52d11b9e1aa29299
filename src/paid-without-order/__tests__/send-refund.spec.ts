import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttentionRecord } from "../../modules/paylater-ledger/types"
import { sendRefund } from "../auto-refund"

function containerWithPayments() {
  const refundPayment = jest.fn(async () => ({}))
  const container = {
    resolve: (key: string) => {
      if (key === Modules.PAYMENT) return { refundPayment }
      throw new Error(`unexpected resolve(${key})`)
    },
  } as unknown as MedusaContainer
  return { container, refundPayment }
}

const item = { id: "att_1", payment_id: "pay_1", amount: "350.01", paylater_order_id: "payses_1", session_id: "payses_1", detail: {} } as unknown as AttentionRecord

describe("sendRefund through the Medusa payment", () => {
  it("names the ledger's two-decimal amount when none is given (Medusa's default may carry more decimals)", async () => {
    const { container, refundPayment } = containerWithPayments()
    await sendRefund(container, {} as never, item)
    expect(refundPayment).toHaveBeenCalledWith(expect.objectContaining({ payment_id: "pay_1", amount: "350.01" }))
  })

  it("names the operator's amount when one is given", async () => {
    const { container, refundPayment } = containerWithPayments()
    await sendRefund(container, {} as never, item, "100.00")
    expect(refundPayment).toHaveBeenCalledWith(expect.objectContaining({ payment_id: "pay_1", amount: "100.00" }))
  })
})

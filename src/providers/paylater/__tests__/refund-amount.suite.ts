import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { toExactRefundAmount } from "../money"
import { makeProvider } from "./fake-api"

const data = { session_id: "payses_1", paylater_order_id: "payses_1-2", amount: "100.00", paylater_status: "success" }

describe("refund amounts are exact, never rounded", () => {
  it.each([
    [33.335, "33.335"],
    ["99.995", "99.995"],
    [new BigNumber("0.001"), "0.001"],
    [{ value: "12.3456", precision: 20 }, "12.3456"],
  ])("refuses %p with an admin message and sends nothing", async (amount, shown) => {
    const { provider, fake } = makeProvider()
    const error = await provider.refundPayment({ amount: amount as never, data }).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain(`${shown} QAR has more than two decimals`)
    expect(fake.refunds).toHaveLength(0)
  })

  it("99.995 of a 100.00 payment is not turned into a full refund", async () => {
    const { provider, fake } = makeProvider()
    await expect(provider.refundPayment({ amount: 99.995, data })).rejects.toThrow(/more than two decimals/)
    expect(fake.refunds).toEqual([])
  })

  it("takes two decimals or fewer as they are, including trailing zeros", () => {
    expect(toExactRefundAmount(33.33)).toBe("33.33")
    expect(toExactRefundAmount("33.3300")).toBe("33.33")
    expect(toExactRefundAmount({ value: "120.5", precision: 20 })).toBe("120.50")
    expect(toExactRefundAmount(new BigNumber(7))).toBe("7.00")
  })
})

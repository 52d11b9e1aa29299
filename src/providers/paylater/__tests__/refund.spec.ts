import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../../lib/paylater"
import { makeProvider } from "./fake-api"

const data = { session_id: "payses_1", paylater_order_id: "payses_1-2", amount: "350.00", paylater_status: "success" }

describe("refundPayment", () => {
  it("sends a full refund without an amount", async () => {
    const { provider, fake } = makeProvider()
    const out = await provider.refundPayment({ amount: 350, data })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2" }])
    expect(out.data).toMatchObject({ paylater_refunded_amount: "350.00" })
  })

  it("sends a partial refund as two-decimal text, from a raw BigNumber", async () => {
    const { provider, fake } = makeProvider()
    const raw = { value: "120.5", precision: 20 }
    const out = await provider.refundPayment({ amount: raw, data })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2", amount: "120.50" }])
    expect(out.data).toMatchObject({ paylater_refunded_amount: "120.50" })
  })

  it("treats the rest after a partial refund as partial, and adds up refunds", async () => {
    const { provider, fake } = makeProvider()
    const first = await provider.refundPayment({ amount: new BigNumber(100), data })
    const second = await provider.refundPayment({ amount: 250, data: first.data })
    expect(fake.refunds[1]).toEqual({ orderId: "payses_1-2", amount: "250.00" })
    expect(second.data).toMatchObject({ paylater_refunded_amount: "350.00" })
    expect((second.data!.paylater_refunds as unknown[]).length).toBe(2)
  })

  it.each([
    ["REFUND_TOO_EARLY", /10 minutes/],
    ["REFUND_WINDOW_CLOSED", /29 days/],
    ["REFUND_REJECTED", /rejected the refund: invalid transaction reference/],
  ] as const)("maps %s to NOT_ALLOWED with a clear admin message", async (code, message) => {
    const { provider, fake } = makeProvider()
    fake.refundAnswers.push(new PayLaterError(code, "invalid transaction reference"))
    const error = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(message)
    expect(fake.refunds).toHaveLength(1)
  })

  it("never repeats a refund that timed out, and says so", async () => {
    const { provider, fake } = makeProvider()
    fake.refundAnswers.push(new PayLaterError("TIMEOUT", "slow"))
    const error = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(fake.refunds).toHaveLength(1)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toMatch(/merchant portal before trying again/)
  })

  it("refuses a payment that has no PayLater order", async () => {
    const { provider, fake } = makeProvider()
    const error = await provider.refundPayment({ amount: 100, data: {} }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(fake.refunds).toHaveLength(0)
  })
})

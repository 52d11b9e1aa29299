import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../../lib/paylater"
import { makeProvider } from "./fake-api"
import { cartCompletionInScope, withinCartCompletion } from "../cart-completion-scope"

const data = { session_id: "payses_1", paylater_order_id: "payses_1-2", amount: "350.00", paylater_status: "success" }

/** A provider whose ledger holds the paid attempt payses_1-2 (350 QAR), the money of order_1. */
function paidProvider(options: Parameters<typeof makeProvider>[0] = {}) {
  const made = makeProvider(options)
  made.ledger.rows.push({
    id: "platm_paid",
    paylater_order_id: "payses_1-2",
    kind: "link",
    session_id: "payses_1",
    provider_id: "pp_paylater_paylater",
    payment_collection_id: "pay_col_1",
    cart_id: "cart_1",
    order_id: "order_1",
    payment_id: "pay_1",
    amount: "350",
    currency_code: "qar",
    expires_at: null,
    state: "paid",
    last_status_code: 2,
    last_status_at: new Date(),
    last_status_signal: "webhook",
    paylater_ref: "PL-1",
    superseded_by: null,
    session_gone_at: null,
    start_error: null,
    detail: null,
  })
  return made
}

describe("refundPayment inside a cart completion: with paidWithoutOrder \"hold\", its rollback refunds no payment no order holds", () => {
  /** The paid attempt with no order holding it (paid without an order: a sold-out cart's). */
  function noOrderProvider(paidWithoutOrder: "hold" | "refund" = "hold") {
    const made = paidProvider({ paidWithoutOrder })
    Object.assign(made.ledger.rows[0], { order_id: null })
    return made
  }

  it("refuses the refund Medusa's rollback of a failed completion asks for: nothing recorded or sent", async () => {
    const { provider, fake, ledger } = noOrderProvider()
    const error = await withinCartCompletion("cart_1", () => provider.refundPayment({ amount: 350, data })).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(/paidWithoutOrder: "hold".*failed cart completion does not refund it.*Settings → PayLater/)
    expect(fake.refunds).toEqual([])
    expect(ledger.attempts).toEqual([])
  })

  it("refunds it outside a completion (Settings → PayLater's Refund), and the scope ends with the run", async () => {
    const { provider, fake } = noOrderProvider()
    await withinCartCompletion("cart_1", async () => undefined)
    expect(cartCompletionInScope()).toBeNull()
    await provider.refundPayment({ amount: 350, data })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2" }])
  })

  it("with \"refund\" the rollback's refund is the merchant's choice anyway: sent; money an order holds is refunded whoever asks", async () => {
    const refunding = noOrderProvider("refund")
    await withinCartCompletion("cart_1", () => refunding.provider.refundPayment({ amount: 350, data }))
    expect(refunding.fake.refunds).toEqual([{ orderId: "payses_1-2" }])
    const held = paidProvider({ paidWithoutOrder: "hold" })
    await withinCartCompletion("cart_1", () => held.provider.refundPayment({ amount: 100, data }))
    expect(held.fake.refunds).toEqual([{ orderId: "payses_1-2", amount: "100.00" }])
  })
})

describe("refundPayment", () => {
  it("sends a full refund without an amount", async () => {
    const { provider, fake } = paidProvider()
    const out = await provider.refundPayment({ amount: 350, data })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2" }])
    expect(out.data).toMatchObject({ paylater_refunded_amount: "350.00" })
  })

  it("sends a partial refund as two-decimal text, from a raw BigNumber", async () => {
    const { provider, fake } = paidProvider()
    const raw = { value: "120.5", precision: 20 }
    const out = await provider.refundPayment({ amount: raw, data })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2", amount: "120.50" }])
    expect(out.data).toMatchObject({ paylater_refunded_amount: "120.50" })
  })

  it("treats the rest after a partial refund as partial, and adds up refunds", async () => {
    const { provider, fake } = paidProvider()
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
    const { provider, fake } = paidProvider()
    fake.refundAnswers.push(new PayLaterError(code, "invalid transaction reference"))
    const error = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(message)
    expect(fake.refunds).toHaveLength(1)
  })

  it("never repeats a refund that timed out, and says so", async () => {
    const { provider, fake } = paidProvider()
    fake.refundAnswers.push(new PayLaterError("TIMEOUT", "slow"))
    const error = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(fake.refunds).toHaveLength(1)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toMatch(/merchant portal before trying again/)
    expect(error.message).toMatch(/Settings → PayLater/)
  })

  it("takes the refunds' ceiling, the PayLater order and the payment from the ledger row, not the payment data", async () => {
    const { provider, fake, ledger } = paidProvider()
    // Data that claims more was paid, and another session: the row (350.00, payses_1, pay_1) decides.
    const claimed = { ...data, amount: "9999.00", session_id: "payses_other" }
    const over = await provider.refundPayment({ amount: 400, data: claimed }).catch((e) => e)
    expect(over).toBeInstanceOf(MedusaError)
    expect(fake.refunds).toHaveLength(0)
    await provider.refundPayment({ amount: 350, data: claimed })
    expect(fake.refunds).toEqual([{ orderId: "payses_1-2" }])
    expect(ledger.attempts).toEqual([expect.objectContaining({ session_id: "payses_1", payment_id: "pay_1", payment_collection_id: "pay_col_1" })])
  })

  it("refuses a payment whose PayLater order the ledger does not know, without calling PayLater", async () => {
    const { provider, fake } = paidProvider()
    const error = await provider.refundPayment({ amount: 100, data: { ...data, paylater_order_id: "payses_unknown" } }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(/no PayLater order to refund/)
    expect(fake.refunds).toHaveLength(0)
  })

  it("refuses a payment whose ledger row PayLater never confirmed as paid, without calling PayLater", async () => {
    const { provider, fake, ledger } = paidProvider()
    ledger.rows[0].state = "open"
    const error = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(/not confirmed this payment as paid/)
    expect(fake.refunds).toHaveLength(0)
  })

  it("refuses a payment that has no PayLater order", async () => {
    const { provider, fake } = paidProvider()
    const error = await provider.refundPayment({ amount: 100, data: {} }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(fake.refunds).toHaveLength(0)
  })
})

describe("refund guard", () => {
  it.each(["TIMEOUT", "NETWORK", "SERVER_ERROR", "UNEXPECTED_RESPONSE"] as const)(
    "after %s, a second refund is refused (NOT_ALLOWED) without calling PayLater, until resolved",
    async (code) => {
      const { provider, fake, ledger } = paidProvider()
      fake.refundAnswers.push(new PayLaterError(code, "no answer"))
      await provider.refundPayment({ amount: 100, data }).catch((e) => e)
      expect(ledger.attempts.map((a) => a.status)).toEqual(["unknown"])

      const refused = await provider.refundPayment({ amount: 50, data }).catch((e) => e)
      expect(refused).toBeInstanceOf(MedusaError)
      expect(refused.type).toBe(MedusaError.Types.NOT_ALLOWED)
      expect(refused.message).toMatch(/refund of 100.00 QAR .* outcome is unknown/)
      expect(refused.message).toMatch(/Settings → PayLater/)
      expect(fake.refunds).toHaveLength(1)

      ledger.resolve(ledger.attempts[0].id, "not_refunded")
      const out = await provider.refundPayment({ amount: 50, data })
      expect(fake.refunds).toHaveLength(2)
      expect(out.data).toMatchObject({ paylater_refunded_amount: "50.00" })
    }
  )

  it("a refund confirmed as paid out counts in the running total: the rest only, never more", async () => {
    const { provider, fake, ledger } = paidProvider()
    fake.refundAnswers.push(new PayLaterError("TIMEOUT", "slow"))
    await provider.refundPayment({ amount: 300, data }).catch((e) => e)
    ledger.resolve(ledger.attempts[0].id, "refunded")

    const over = await provider.refundPayment({ amount: 50.01, data }).catch((e) => e)
    expect(over.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(over.message).toBe(
      "PayLater has already refunded 300.00 of 350.00 QAR for this payment; at most 50.00 QAR can still be refunded."
    )
    const out = await provider.refundPayment({ amount: 50, data })
    expect(fake.refunds[1]).toEqual({ orderId: "payses_1-2", amount: "50.00" })
    expect(out.data).toMatchObject({ paylater_refunded_amount: "350.00" })
  })

  it("keeps the running total exact over many partial refunds (no float drift)", async () => {
    const { provider, fake } = paidProvider()
    let current: Record<string, unknown> = data
    for (let i = 0; i < 10; i++) {
      current = (await provider.refundPayment({ amount: new BigNumber("0.1"), data: current })).data!
    }
    // 0.1 added ten times in binary floating point is 0.9999999999999999.
    expect(current.paylater_refunded_amount).toBe("1.00")
    current = (await provider.refundPayment({ amount: { value: "349.00", precision: 20 }, data: current })).data!
    expect(current.paylater_refunded_amount).toBe("350.00")
    const more = await provider.refundPayment({ amount: 0.01, data: current }).catch((e) => e)
    expect(more.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(fake.refunds).toHaveLength(11)
  })

  it("a refusal PayLater answered (nothing paid) does not block the next refund", async () => {
    const { provider, fake, ledger } = paidProvider()
    fake.refundAnswers.push(new PayLaterError("REFUND_TOO_EARLY", "less than 10 minutes ago"))
    await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(ledger.attempts.map((a) => a.status)).toEqual(["failed"])
    await provider.refundPayment({ amount: 100, data })
    expect(fake.refunds).toHaveLength(2)
  })

  it("refuses a second refund while the first is still waiting for PayLater", async () => {
    const { provider, fake } = paidProvider()
    let answer!: () => void
    fake.refund = async (input) => {
      fake.refunds.push(input)
      await new Promise<void>((resolve) => (answer = resolve))
      return { message: "Refund request accepted" }
    }
    const first = provider.refundPayment({ amount: 100, data })
    await new Promise((r) => setImmediate(r))
    const second = await provider.refundPayment({ amount: 100, data }).catch((e) => e)
    expect(second.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(second.message).toMatch(/being sent to PayLater right now/)
    answer()
    await expect(first).resolves.toMatchObject({ data: { paylater_refunded_amount: "100.00" } })
    expect(fake.refunds).toHaveLength(1)
  })

  it("a pending attempt whose process died counts as unknown", async () => {
    const { provider, fake, ledger } = paidProvider({ timeoutMs: 1000 })
    ledger.attempts.push({
      id: "plref_dead",
      paylater_order_id: "payses_1-2",
      status: "pending",
      amount: "20.00",
      sent_at: new Date(Date.now() - 10 * 60_000),
    })
    const error = await provider.refundPayment({ amount: 10, data }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(/outcome is unknown/)
    expect(fake.refunds).toHaveLength(0)
  })
})

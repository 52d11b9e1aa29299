import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../../lib/paylater"
import { makeProvider, status } from "./fake-api"

const SESSION = "payses_01ABC"
const input = (amount: unknown, currency = "qar", data: Record<string, unknown> = {}) => ({
  amount: amount as number,
  currency_code: currency,
  data: { session_id: SESSION, ...data },
  context: { idempotency_key: SESSION },
})

describe("initiatePayment", () => {
  it("creates one link under the session id with our return URLs and public data only", async () => {
    const { provider, fake } = makeProvider()
    const out = await provider.initiatePayment(input(350))
    expect(fake.links).toHaveLength(1)
    expect(fake.links[0]).toMatchObject({
      orderId: SESSION,
      amount: "350.00",
      currency: "QAR",
      successRedirectUrl: `https://api.shop.qa/paylater/return/${SESSION}?outcome=success`,
      failRedirectUrl: `https://api.shop.qa/paylater/return/${SESSION}?outcome=fail`,
      expiryMinutes: 60,
    })
    expect(out.id).toBe(SESSION)
    expect(out.status).toBe("pending")
    expect(out.data).toMatchObject({
      session_id: SESSION,
      paylater_order_id: SESSION,
      paylater_attempt: 1,
      amount: "350.00",
      currency: "QAR",
      payment_link_url: `https://pay.example/paylink/${SESSION}?token=t&channel=web`,
    })
    // Where the shopper goes back to is the merchant's configuration (return-redirect.ts), never session data.
    expect(out.data).not.toHaveProperty("paylater_redirects")
    expect(new Date(out.data!.expires_at as string).toISOString()).toBe(out.data!.expires_at)
    const text = JSON.stringify(out.data)
    expect(text).not.toContain("very-secret")
    expect(text).not.toContain("client-1")
  })

  it.each([
    [350.005, "350.01"],
    ["350.004", "350.00"],
    [new BigNumber(1260.5), "1260.50"],
    [{ value: "999.995", precision: 20 }, "1000.00"],
  ])("rounds %p to %s without floating point", async (amount, expected) => {
    const { provider, fake } = makeProvider()
    const out = await provider.initiatePayment(input(amount))
    expect(fake.links[0].amount).toBe(expected)
    expect(out.data!.amount).toBe(expected)
  })

  it("refuses other currencies with a message the storefront can show", async () => {
    const { provider, fake } = makeProvider()
    const error = await provider.initiatePayment(input(350, "eur")).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toMatch(/Qatari riyal \(QAR\) only; this cart is in EUR/)
    expect(fake.links).toHaveLength(0)
  })

  it.each([
    [299.99, "299.99"],
    [4000.01, "4000.01"],
  ])("refuses %p outside the outlet's own range, naming the bounds", async (amount, shown) => {
    const { provider, fake } = makeProvider({ maxAmount: "4000" })
    const error = await provider.initiatePayment(input(amount)).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain("between 300.00 and 4000.00 QAR")
    expect(error.message).toContain(`${shown} QAR`)
    expect(fake.links).toHaveLength(0)
  })

  it("rounds before the range check (299.995 is 300.00)", async () => {
    const { provider, fake } = makeProvider()
    await provider.initiatePayment(input(299.995))
    expect(fake.links[0].amount).toBe("300.00")
  })

  it.each(["TIMEOUT", "NETWORK", "SERVER_ERROR", "ORDER_ID_NOT_UNIQUE"] as const)(
    "after %s creates exactly once more, under <session>-2",
    async (code) => {
      const { provider, fake } = makeProvider()
      fake.linkAnswers.push(new PayLaterError(code, "boom"))
      const out = await provider.initiatePayment(input(350))
      expect(fake.links.map((l) => l.orderId)).toEqual([SESSION, `${SESSION}-2`])
      // The return URL keeps the bare session id: that is what Medusa knows the session by.
      expect(fake.links[1].successRedirectUrl).toContain(`/paylater/return/${SESSION}?`)
      expect(out.id).toBe(`${SESSION}-2`)
      expect(out.data).toMatchObject({ paylater_order_id: `${SESSION}-2`, paylater_attempt: 2 })
    }
  )

  it("gives up after the second failure with a try-again message", async () => {
    const { provider, fake } = makeProvider()
    fake.linkAnswers.push(new PayLaterError("TIMEOUT", "t1"), new PayLaterError("TIMEOUT", "t2"))
    const error = await provider.initiatePayment(input(350)).catch((e) => e)
    expect(fake.links).toHaveLength(2)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toMatch(/try again/i)
  })

  it("does not retry what PayLater refused on purpose", async () => {
    const { provider, fake } = makeProvider()
    fake.linkAnswers.push(
      new PayLaterError("AMOUNT_OUT_OF_RANGE", "Amount must be between 300 and 4000", {
        details: { min: "300.00", max: "4000.00" },
      })
    )
    const error = await provider.initiatePayment(input(5000)).catch((e) => e)
    expect(fake.links).toHaveLength(1)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain("between 300.00 and 4000.00 QAR")
  })

  it.each([
    ["INVALID_CREDENTIALS", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR],
    ["MERCHANT_MISSING", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR],
    ["UNEXPECTED_RESPONSE", MedusaError.Types.UNEXPECTED_STATE],
    ["VALIDATION", MedusaError.Types.INVALID_DATA],
  ] as const)("maps %s to %s", async (code, type) => {
    const { provider, fake } = makeProvider()
    fake.linkAnswers.push(new PayLaterError(code, "x"))
    const error = await provider.initiatePayment(input(350)).catch((e) => e)
    expect(error.type).toBe(type)
  })
})

describe("updatePayment", () => {
  it("keeps the link when the amount is unchanged", async () => {
    const { provider, fake } = makeProvider()
    const { data } = await provider.initiatePayment(input(350))
    const out = await provider.updatePayment({ amount: 350, currency_code: "qar", data: data! })
    expect(out.data).toEqual(data)
    expect(fake.links).toHaveLength(1)
  })

  it("creates a new single-use link under the next suffix when the amount changes", async () => {
    const { provider, fake } = makeProvider()
    fake.linkAnswers.push(new PayLaterError("TIMEOUT", "t"))
    const { data } = await provider.initiatePayment(input(350))
    expect(data!.paylater_order_id).toBe(`${SESSION}-2`)
    const out = await provider.updatePayment({ amount: 400, currency_code: "qar", data: data! })
    expect(fake.links.map((l) => l.orderId)).toEqual([SESSION, `${SESSION}-2`, `${SESSION}-3`])
    expect(out.data).toMatchObject({ paylater_order_id: `${SESSION}-3`, paylater_attempt: 3, amount: "400.00" })
  })

  it("keeps the replaced, still payable link in the ledger, open and naming its successor", async () => {
    const { provider, ledger } = makeProvider()
    const { data } = await provider.initiatePayment(input(350))
    await provider.updatePayment({ amount: 400, currency_code: "qar", data: data! })
    expect(ledger.rows.map((r) => [r.paylater_order_id, r.state, r.superseded_by, String(r.amount)])).toEqual([
      [SESSION, "open", `${SESSION}-2`, "350.00"],
      [`${SESSION}-2`, "open", null, "400.00"],
    ])
  })

  it("writes the attempt before PayLater is called, and keeps it when the create times out", async () => {
    const { provider, fake, ledger } = makeProvider()
    let rowsAtCall = -1
    const create = fake.createPaymentLink.bind(fake)
    fake.createPaymentLink = async (link) => {
      rowsAtCall = ledger.rows.filter((r) => r.paylater_order_id === link.orderId).length
      return create(link)
    }
    fake.linkAnswers.push(new PayLaterError("TIMEOUT", "t"))
    await provider.initiatePayment(input(350))
    expect(rowsAtCall).toBe(1)
    // The timed-out first create may have landed at PayLater: still open, asked about until expiry.
    expect(ledger.rows.map((r) => [r.paylater_order_id, r.state, r.start_error])).toEqual([
      [SESSION, "open", "TIMEOUT"],
      [`${SESSION}-2`, "open", null],
    ])
  })

  it("drops storefront keys and stale paylater_* keys from the session's view", async () => {
    const { provider } = makeProvider()
    const out = await provider.initiatePayment({
      ...input(350),
      data: { session_id: SESSION, paylater_status_code: 3, paylater_failure_reason: "declined", paylater_refunded_amount: "350.00", anything: 1 },
    })
    const written = JSON.parse(JSON.stringify({ session_id: SESSION, paylater_status_code: 3, paylater_failure_reason: "declined", paylater_refunded_amount: "350.00", anything: 1, ...out.data }))
    expect(written).not.toHaveProperty("paylater_status_code")
    expect(written).not.toHaveProperty("paylater_failure_reason")
    expect(written).not.toHaveProperty("paylater_refunded_amount")
    expect(written).not.toHaveProperty("anything")
    expect(written).not.toHaveProperty("paylater_status")
    expect(written).toMatchObject({ session_id: SESSION, amount: "350.00" })
  })

  it("refuses to replace a link that is already paid", async () => {
    const { provider, fake } = makeProvider()
    const { data } = await provider.initiatePayment(input(350))
    fake.statusAnswers.push(status(2))
    const error = await provider.updatePayment({ amount: 400, currency_code: "qar", data: data! }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(fake.links).toHaveLength(1)
  })
})

import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../../lib/paylater"
import { withStoreStart } from "../request-context"
import { PayLaterRequestToPayProviderService } from "../services/request-to-pay"
import { makeRtpProvider, status } from "./fake-api"

const SESSION = "payses_01RTP"
const FULL = "97451118021"
const input = (mobile: unknown, amount: unknown = 350) => ({
  amount: amount as number,
  currency_code: "qar",
  data: { session_id: SESSION, mobile_number: mobile },
  context: { idempotency_key: SESSION },
})

/** Everything the provider returned or logged, as one text: the full number must appear nowhere. */
function leaks(out: unknown, logged: { message: string }[]): boolean {
  const text = JSON.stringify(out) + logged.map((l) => l.message).join("\n")
  return /51118021/.test(text)
}

describe("Request to Pay: identity", () => {
  it("is registered as paylater-rtp, next to the link service", () => {
    expect(PayLaterRequestToPayProviderService.identifier).toBe("paylater-rtp")
  })
})

describe("Request to Pay: initiatePayment", () => {
  it.each(["5111 8021", "+974 5111 8021", "0097451118021", "97451118021", "51118021", "+974-5111-8021"])(
    "accepts %p and sends 974 + 8 digits",
    async (typed) => {
      const { provider, fake, logged } = makeRtpProvider()
      const out = await provider.initiatePayment(input(typed))
      expect(fake.rtps).toEqual([
        { mobileNumber: FULL, amount: "350.00", merchantOrderReference: SESSION, expiryMinutes: 15 },
      ])
      expect(out.data).toMatchObject({ mobile_number_masked: "974*****021", paylater_order_id: SESSION })
      // The storefront's number is overwritten with undefined, which JSON drops when Medusa stores it.
      expect(Object.prototype.hasOwnProperty.call(out.data, "mobile_number")).toBe(true)
      expect(out.data!.mobile_number).toBeUndefined()
      expect(JSON.parse(JSON.stringify(out.data))).not.toHaveProperty("mobile_number")
      expect(leaks(out, logged)).toBe(false)
    }
  )

  it.each([undefined, "", "12345678", "5111802", "+971 5111 8021", "974511180211", "4111 8021", "abc", { n: 1 }])(
    "refuses %p with INVALID_DATA before any call",
    async (typed) => {
      const { provider, fake } = makeRtpProvider()
      const error = await provider.initiatePayment(input(typed)).catch((e) => e)
      expect(error).toBeInstanceOf(MedusaError)
      expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
      expect(error.message).toMatch(/mobile number/)
      expect(fake.rtps).toHaveLength(0)
      expect(fake.statusCalls).toHaveLength(0)
    }
  )

  it("sends a 150 QAR point-of-sale request: the link's 300 QAR minimum does not apply", async () => {
    const { provider, fake } = makeRtpProvider()
    await provider.initiatePayment(input("51118021", 150))
    expect(fake.rtps).toEqual([
      { mobileNumber: FULL, amount: "150.00", merchantOrderReference: SESSION, expiryMinutes: 15 },
    ])
  })

  it.each([
    [0.5, {}, /between 1.00 and 25000.00 QAR; this order is 0.50 QAR/],
    [25000.01, {}, /between 1.00 and 25000.00 QAR/],
    [150, { requestToPayMinAmount: "200" }, /between 200.00 and 25000.00 QAR; this order is 150.00 QAR/],
  ])("refuses %p QAR outside its own range before any call", async (amount, options, message) => {
    const { provider, fake } = makeRtpProvider(options)
    const error = await provider.initiatePayment(input("51118021", amount)).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toMatch(message)
    expect(fake.rtps).toHaveLength(0)
  })

  it("keeps PayLater's expiry_date as the session's expires_at instant and the raw text too", async () => {
    const { provider } = makeRtpProvider()
    const out = await provider.initiatePayment(input("51118021"))
    expect(out.data).toMatchObject({
      expires_at: "2030-01-01T10:15:41.477Z",
      paylater_expiry_date_raw: "2030-01-01T10:15:41.477013291",
      paylater_expiry_minutes: 15,
      amount: "350.00",
      currency: "QAR",
    })
  })

  it.each([
    [350.005, "350.01"],
    [new BigNumber(1260.5), "1260.50"],
    [{ value: "999.995", precision: 20 }, "1000.00"],
  ])("sends order_amount %p as %s", async (amount, expected) => {
    const { provider, fake } = makeRtpProvider()
    await provider.initiatePayment(input("51118021", amount))
    expect(fake.rtps[0].amount).toBe(expected)
  })

  it("uses the configured expiry minutes", async () => {
    const { provider, fake } = makeRtpProvider({ requestToPayExpiryMinutes: 30 })
    await provider.initiatePayment(input("51118021"))
    expect(fake.rtps[0].expiryMinutes).toBe(30)
  })

  it("refuses expiry minutes outside 1..1440 at boot", () => {
    expect(() => makeRtpProvider({ requestToPayExpiryMinutes: 0 })).toThrow(/requestToPayExpiryMinutes/)
    expect(() => makeRtpProvider({ requestToPayExpiryMinutes: 1441 })).toThrow(/requestToPayExpiryMinutes/)
  })

  it("turns a 409 duplicate into a distinct NOT_ALLOWED error, without retrying", async () => {
    const { provider, fake } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("DUPLICATE_REFERENCE", "dup", { httpStatus: 409 }))
    const error = await provider.initiatePayment(input("51118021")).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.code).toBe("paylater_rtp_duplicate_reference")
    expect(fake.rtps).toHaveLength(1)
    expect(fake.statusCalls).toHaveLength(0)
  })

  it("turns a 404 upstream failure into a try-later error the storefront can retry", async () => {
    const { provider, fake } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("UPSTREAM_UNAVAILABLE", "later", { httpStatus: 404, retryable: true }))
    const error = await provider.initiatePayment(input("51118021")).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR)
    expect(error.code).toBe("paylater_rtp_try_later")
    expect(error.message).toMatch(/try again/)
    expect(fake.rtps).toHaveLength(1)

  })

  it("records the refusal on the attempt by its own code (the funnel counts it as a look-up refusal), not as the generic type", async () => {
    const { provider, fake, ledger } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("UPSTREAM_UNAVAILABLE", "later", { httpStatus: 404, retryable: true }))
    await provider.initiatePayment(input("51118021")).catch(() => undefined)
    expect(ledger.rows.map((r) => [r.state, r.start_error])).toEqual([["never_started", "paylater_rtp_try_later"]])
  })

  it("after a timeout, keeps a request PayLater did receive (status 1) and pushes nothing more", async () => {
    const { provider, fake, logged } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("TIMEOUT", "t"))
    fake.statusAnswers.push(status(1))
    const before = Date.now()
    const out = await provider.initiatePayment(input("5111 8021"))
    expect(fake.rtps).toHaveLength(1)
    expect(fake.statusCalls).toEqual([SESSION])
    expect(out.id).toBe(SESSION)
    const expires = Date.parse(out.data!.expires_at as string)
    expect(expires).toBeGreaterThanOrEqual(before + 15 * 60_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000)
    expect(out.data).toMatchObject({ paylater_expiry_date_raw: null, mobile_number_masked: "974*****021" })
    expect(leaks(out, logged)).toBe(false)
  })

  it.each(["TIMEOUT", "NETWORK", "SERVER_ERROR", "UNEXPECTED_RESPONSE"] as const)(
    "after %s with status 0 (never received) sends once more under <session>-2",
    async (code) => {
      const { provider, fake } = makeRtpProvider()
      fake.rtpAnswers.push(new PayLaterError(code, "x"))
      fake.statusAnswers.push(status(0))
      const out = await provider.initiatePayment(input("51118021"))
      expect(fake.rtps.map((r) => r.merchantOrderReference)).toEqual([SESSION, `${SESSION}-2`])
      expect(out.data).toMatchObject({ paylater_order_id: `${SESSION}-2`, paylater_attempt: 2 })
    }
  )

  it("never sends again when the status cannot be checked", async () => {
    const { provider, fake } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("TIMEOUT", "t"))
    fake.statusAnswers.push(new PayLaterError("TIMEOUT", "status down"))
    const error = await provider.initiatePayment(input("51118021")).catch((e) => e)
    expect(fake.rtps).toHaveLength(1)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.code).toBe("paylater_rtp_unconfirmed")
  })

  it("checks the second attempt too before giving up", async () => {
    const { provider, fake } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("TIMEOUT", "1"), new PayLaterError("TIMEOUT", "2"))
    fake.statusAnswers.push(status(0), status(1))
    const out = await provider.initiatePayment(input("51118021"))
    expect(fake.rtps).toHaveLength(2)
    expect(fake.statusCalls).toEqual([SESSION, `${SESSION}-2`])
    expect(out.data).toMatchObject({ paylater_order_id: `${SESSION}-2` })
  })

  it("gives up after two attempts PayLater never received", async () => {
    const { provider, fake } = makeRtpProvider()
    fake.rtpAnswers.push(new PayLaterError("TIMEOUT", "1"), new PayLaterError("TIMEOUT", "2"))
    fake.statusAnswers.push(status(0), status(0))
    const error = await provider.initiatePayment(input("51118021")).catch((e) => e)
    expect(fake.rtps).toHaveLength(2)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
  })
})

describe("Request to Pay: status through the shared base", () => {
  async function started() {
    const made = makeRtpProvider()
    const { data } = await made.provider.initiatePayment(input("51118021"))
    return { ...made, data: data! }
  }

  it("maps 2 → captured, 0/1 → pending, declined 3 → error", async () => {
    const { provider, fake, data, ledger } = await started()
    fake.statusAnswers.push(status(1), status(2), status(3))
    expect((await provider.getPaymentStatus({ data })).status).toBe("pending")
    expect((await provider.getPaymentStatus({ data })).status).toBe("captured")
    const declined = await provider.getPaymentStatus({ data })
    expect(declined.status).toBe("error")
    // As stored (JSON): no copy of the verdict in the data; the row answers (paid stays final here).
    expect(JSON.parse(JSON.stringify(declined.data))).not.toHaveProperty("paylater_failure_reason")
    expect(ledger.rows[0]).toMatchObject({ state: "paid" })
  })

  it("authorizes from the row once PayLater said paid, asking nothing more (Medusa's completion after settlement)", async () => {
    const { provider, fake, data } = await started()
    fake.statusAnswers.push(status(1), status(2), status(3))
    expect((await provider.authorizePayment({ data })).status).toBe("pending")
    expect((await provider.authorizePayment({ data })).status).toBe("captured")
    const asked = fake.statusCalls.length
    const again = await provider.authorizePayment({ data })
    expect(again.status).toBe("captured")
    expect(again.data).toMatchObject({ paylater_order_id: data.paylater_order_id })
    expect(fake.statusCalls).toHaveLength(asked)
  })

  it("answers settlement's authorization from the answer it just recorded for the attempt it names", async () => {
    const { provider, fake, data, ledger } = await started()
    fake.statusAnswers.push(status(3))
    const orderId = data.paylater_order_id as string
    await provider.getPaymentStatus({ data })
    expect(ledger.rows[0]).toMatchObject({ last_status_code: 3 })
    const asked = fake.statusCalls.length
    const recorded = await provider.authorizePayment({ data, context: { paylater_attempt: orderId } as never })
    expect(recorded.status).toBe("error")
    expect(fake.statusCalls).toHaveLength(asked)
    // Without the name, an unpaid row is asked about again.
    fake.statusAnswers.push(status(1))
    expect((await provider.authorizePayment({ data })).status).toBe("pending")
    expect(fake.statusCalls).toHaveLength(asked + 1)
  })

  it("ends an expired request as canceled with reason expired", async () => {
    const { provider, fake, data, ledger } = await started()
    ledger.rows[0].expires_at = new Date(Date.now() - 1000)
    fake.statusAnswers.push(status(3))
    const out = await provider.getPaymentStatus({ data })
    expect(out.status).toBe("canceled")
    expect(ledger.rows[0]).toMatchObject({ state: "expired", last_status_code: 3 })
    expect(JSON.parse(JSON.stringify(out.data))).not.toHaveProperty("paylater_failure_reason")
  })
})

describe("Request to Pay through the store API (the route's facts in request-context.ts)", () => {
  it("pushes to the number the store route matched with the cart's email, without a look-up of its own", async () => {
    const { provider, fake } = makeRtpProvider()
    const lookUp = jest.spyOn(fake, "lookupShopper")
    await withStoreStart("pay_col_1", { matched_mobile: FULL }, () => provider.initiatePayment(input("+974 5111 8021")))
    expect(fake.rtps).toHaveLength(1)
    expect(lookUp).not.toHaveBeenCalled()
  })

  it.each([
    ["another number than the one matched", { matched_mobile: "97451118022" }],
    ["no number matched", { matched_mobile: null }],
  ])("refuses %s with the one 'not eligible' answer and pushes nothing", async (_what, facts) => {
    const { provider, fake } = makeRtpProvider()
    const error = await withStoreStart("pay_col_1", facts, () => provider.initiatePayment(input("51118021"))).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED, code: "paylater_not_eligible" })
    expect(fake.rtps).toHaveLength(0)
  })

  it("records such a refusal on the attempt as paylater_not_eligible", async () => {
    const { provider, ledger } = makeRtpProvider()
    await withStoreStart("pay_col_1", { matched_mobile: null }, () => provider.initiatePayment(input("51118021"))).catch(() => undefined)
    expect(ledger.rows.map((r) => [r.state, r.start_error])).toEqual([["never_started", "paylater_not_eligible"]])
  })
})

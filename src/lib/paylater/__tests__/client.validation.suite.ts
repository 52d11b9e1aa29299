import nock from "nock"
import { TOKEN, caught, makeClient, paylater, tokenAnswer, unmatchedRequests, useNock } from "./support/paylater-nock"

/**
 * Every input problem is refused before any request: the token and operation interceptors below
 * must stay untouched and nothing may even try to connect.
 */

let scope: nock.Scope
let unmatched: ReturnType<typeof unmatchedRequests>

beforeEach(() => {
  unmatched = unmatchedRequests()
  scope = paylater()
    .post(TOKEN)
    .reply(200, tokenAnswer())
    .post(() => true)
    .reply(200, {})
    .get(() => true)
    .reply(200, {})
})
afterEach(() => {
  expect(scope.pendingMocks()).toHaveLength(3)
  expect(unmatched.count).toBe(0)
  unmatched.stop()
  nock.cleanAll()
})
// After the hook above: the check must see the interceptors before they are cleaned away.
useNock()

const LINK = {
  orderId: "payses_v",
  amount: "350.00",
  currency: "QAR",
  successRedirectUrl: "https://shop.example/ok",
  failRedirectUrl: "https://shop.example/fail",
}
const RTP = { mobileNumber: "51118021", amount: "350.00", merchantOrderReference: "payses_v" }

describe("createPaymentLink input", () => {
  it.each([
    ["currency USD", { currency: "USD" }, /currency must be QAR/],
    ["currency missing", { currency: undefined }, /currency must be QAR/],
    ["three decimals", { amount: "350.005" }, /at most two decimals/],
    ["amount as words", { amount: "three hundred" }, /amount must be a plain decimal/],
    ["amount with comma", { amount: "1,000.00" }, /amount must be a plain decimal/],
    ["amount exponent", { amount: "3.5e2" }, /amount must be a plain decimal/],
    ["amount zero", { amount: "0" }, /greater than zero/],
    ["amount negative", { amount: "-350.00" }, /greater than zero/],
    ["amount NaN", { amount: Number.NaN }, /finite/],
    ["amount object", { amount: { value: 350 } }, /decimal text/],
    ["empty order id", { orderId: "" }, /orderId must be non-empty/],
    ["blank order id", { orderId: "   " }, /orderId must be non-empty/],
    ["order id too long", { orderId: "x".repeat(256) }, /at most 255/],
    ["order id with newline", { orderId: "a\nb" }, /control characters/],
    ["order id number", { orderId: 12 }, /orderId must be non-empty text/],
    ["relative success URL", { successRedirectUrl: "/ok" }, /successRedirectUrl must be an absolute http\(s\) URL/],
    ["ftp fail URL", { failRedirectUrl: "ftp://shop.example/fail" }, /failRedirectUrl must be/],
    ["javascript URL", { successRedirectUrl: "javascript:alert(1)" }, /successRedirectUrl/],
    ["expiry 0", { expiryMinutes: 0 }, /expiryMinutes must be a whole number of minutes from 1 to 1440/],
    ["expiry 1441", { expiryMinutes: 1441 }, /1 to 1440/],
    ["expiry fraction", { expiryMinutes: 1.5 }, /1 to 1440/],
    ["expiry text", { expiryMinutes: "60" }, /1 to 1440/],
  ])("%s → VALIDATION", async (_name, change, message) => {
    const error = await caught(makeClient().client.createPaymentLink({ ...LINK, ...(change as object) } as never))

    expect(error).toMatchObject({ code: "VALIDATION" })
    expect(error.message).toMatch(message)
  })

  it("lists every problem at once", async () => {
    const error = await caught(
      makeClient().client.createPaymentLink({ ...LINK, currency: "EUR", amount: "1.234", orderId: "" })
    )

    expect(error.code).toBe("VALIDATION")
    expect(error.details.problems).toHaveLength(3)
  })

  it.each([
    ["299.99", "300.00", "25000.00", {}],
    ["25000.01", "300.00", "25000.00", {}],
    ["4000.01", "300.00", "4000.00", { maxAmount: "4000" }],
    ["499", "500.00", "4000.00", { minAmount: 500, maxAmount: "4000.00" }],
  ])("amount %s outside %s–%s → AMOUNT_OUT_OF_RANGE", async (amount, min, max, options) => {
    const error = await caught(makeClient(options).client.createPaymentLink({ ...LINK, amount }))

    expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", details: { min, max } })
    expect(error.message).toBe(`Amount must be between ${min} and ${max} QAR`)
  })

  it("a non-object input → VALIDATION", async () => {
    const error = await caught(makeClient().client.createPaymentLink(null as never))
    expect(error.code).toBe("VALIDATION")
  })
})

describe("requestToPay input", () => {
  it.each([
    ["landline", { mobileNumber: "44123456" }, /Qatar mobile/],
    ["too short", { mobileNumber: "5111802" }, /Qatar mobile/],
    ["other country", { mobileNumber: "+971501234567" }, /Qatar mobile/],
    ["three decimals", { amount: "350.001" }, /at most two decimals/],
    ["no reference", { merchantOrderReference: "" }, /merchantOrderReference/],
    ["expiry 0", { expiryMinutes: 0 }, /1 to 1440/],
  ])("%s → VALIDATION", async (_name, change, message) => {
    const error = await caught(makeClient().client.requestToPay({ ...RTP, ...(change as object) } as never))

    expect(error.code).toBe("VALIDATION")
    expect(error.message).toMatch(message)
  })

  it("the error never repeats the mobile number", async () => {
    const error = await caught(makeClient().client.requestToPay({ ...RTP, mobileNumber: "+971 50 999 8877" }))
    expect(error.message).not.toMatch(/9998877|999 8877/)
  })

  it.each([
    ["0.99", "1.00", "25000.00", {}],
    ["25000.01", "1.00", "25000.00", {}],
    ["1000.01", "1.00", "1000.00", { requestToPayMaxAmount: "1000" }],
    ["49.99", "50.00", "25000.00", { requestToPayMinAmount: 50 }],
    // The link's outlet range does not apply to Request to Pay.
    ["0.50", "1.00", "25000.00", { minAmount: "500", maxAmount: "4000" }],
  ])("Request to Pay has its own range: %s outside %s–%s → AMOUNT_OUT_OF_RANGE", async (amount, min, max, options) => {
    const error = await caught(makeClient(options).client.requestToPay({ ...RTP, amount }))
    expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", details: { min, max } })
  })
})

describe("other operations", () => {
  it.each([[""], [" "], [undefined], [null], [42], ["x".repeat(300)]])("status with order id %j → VALIDATION", async (orderId) => {
    const error = await caught(makeClient().client.getPaymentStatus(orderId as never))
    expect(error.code).toBe("VALIDATION")
  })

  it.each([
    [{ orderId: "" }],
    [{ orderId: "r", amount: "0.00" }],
    [{ orderId: "r", amount: "-5" }],
    [{ orderId: "r", amount: "10.005" }],
    [{ orderId: "r", amount: null }],
    [{ orderId: "r", amount: "ten" }],
  ])("refund %j → VALIDATION", async (input) => {
    const error = await caught(makeClient().client.refund(input as never))
    expect(error.code).toBe("VALIDATION")
  })

  it.each([
    [{ mobileNumber: "51118021", email: "not-an-email" }],
    [{ mobileNumber: "51118021" }],
    [{ mobileNumber: "123", email: "a@b.qa" }],
    [{ email: "a@b.qa" }],
  ])("shopper lookup %j → VALIDATION", async (input) => {
    const error = await caught(makeClient().client.lookupShopper(input as never))
    expect(error.code).toBe("VALIDATION")
  })
})

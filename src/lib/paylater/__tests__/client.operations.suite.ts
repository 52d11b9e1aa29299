import nock from "nock"
import {
  ACCESS_TOKEN,
  CLIENT_SECRET,
  TOKEN,
  WEB_CHECKOUT,
  capture,
  makeClient,
  paylater,
  tokenAnswer,
  useNock,
} from "./support/paylater-nock"

useNock()


function withToken(scope: nock.Scope): nock.Scope {
  return scope.post(TOKEN).reply(200, tokenAnswer())
}

describe("PayLaterClient happy paths", () => {
  it("fetches the token with client credentials as a form", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope)
      .get(`${WEB_CHECKOUT}/status`)
      .query({ order_id: "payses_1" })
      .reply(200, { message: "Order not initiated", status: 0 })
    const { client } = makeClient()

    await client.getPaymentStatus("payses_1")

    expect(seen[0].method).toBe("POST")
    expect(seen[0].path).toBe(TOKEN)
    expect(seen[0].headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(Object.fromEntries(new URLSearchParams(seen[0].body))).toEqual({
      grant_type: "client_credentials",
      client_id: "merchant-138",
      client_secret: CLIENT_SECRET,
    })
    expect(scope.isDone()).toBe(true)
  })

  it("creates a payment link with the exact body, amount written as 350.00", async () => {
    const scope = paylater()
    const seen = capture(scope)
    const url = "https://payments.uat.paylaterapp.com/paylink/0f6c?token=abc&channel=web"
    withToken(scope).post(WEB_CHECKOUT).reply(200, { paymentLinkUrl: url })
    const { client } = makeClient()

    const link = await client.createPaymentLink({
      orderId: "payses_01ABC",
      amount: "350",
      currency: "qar",
      successRedirectUrl: "https://shop.example/paylater/return?s=ok",
      failRedirectUrl: "https://shop.example/paylater/return?s=fail",
    })

    expect(link).toEqual({ paymentLinkUrl: url })
    const create = seen[1]
    expect(create.path).toBe(WEB_CHECKOUT)
    expect(create.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
    expect(create.headers["content-type"]).toBe("application/json")
    expect(create.body).toBe(
      '{"outlet_id":1000000061,"currency":"QAR","amount":350.00,"order_id":"payses_01ABC",' +
        '"success_redirect_url":"https://shop.example/paylater/return?s=ok",' +
        '"fail_redirect_url":"https://shop.example/paylater/return?s=fail","expiry_duration":60}'
    )
  })

  it("sends the caller's link expiry and two-decimal amounts verbatim", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope).post(WEB_CHECKOUT).reply(200, { paymentLinkUrl: "https://pay.example/x" })
    const { client } = makeClient()

    await client.createPaymentLink({
      orderId: "o-2",
      amount: "24999.9",
      currency: "QAR",
      successRedirectUrl: "http://localhost:9000/ok",
      failRedirectUrl: "http://localhost:9000/fail",
      expiryMinutes: 1440,
    })

    expect(seen[1].body).toContain('"amount":24999.90,')
    expect(seen[1].body).toContain('"expiry_duration":1440}')
  })

  it("sends a Request to Pay with the normalised mobile and parses expiry_date as UTC", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope).post(`${WEB_CHECKOUT}/request-to-pay`).reply(200, {
      merchant_order_reference: "payses_rtp",
      status: "SUCCESS",
      expiry_date: "2026-04-28T10:15:41.477013291",
    })
    const { client } = makeClient()

    const result = await client.requestToPay({
      mobileNumber: "+974 5111 8021",
      amount: "350.00",
      merchantOrderReference: "payses_rtp",
    })

    expect(seen[1].body).toBe(
      '{"outlet_id":1000000061,"mobile_number":"97451118021","order_amount":350.00,' +
        '"merchant_order_reference":"payses_rtp","expiry_minutes":15}'
    )
    expect(seen[1].headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
    expect(result).toEqual({
      merchantOrderReference: "payses_rtp",
      status: "SUCCESS",
      expiresAt: new Date("2026-04-28T10:15:41.477Z"),
      expiryDateRaw: "2026-04-28T10:15:41.477013291",
    })
  })

  it.each([
    [{ message: "Order not initiated", status: 0 }, { code: 0, state: "not_initiated", payLaterOrderId: null, merchantReference: null }],
    [
      { payLaterOrderId: "PL1744792493935483", message: "pending", merchantReference: "payses_s", status: 1 },
      { code: 1, state: "pending", payLaterOrderId: "PL1744792493935483", merchantReference: "payses_s" },
    ],
    [
      { payLaterOrderId: "PL1744792493935483", message: "success", merchantReference: "payses_s", status: 2 },
      { code: 2, state: "success", payLaterOrderId: "PL1744792493935483", merchantReference: "payses_s" },
    ],
    [
      { payLaterOrderId: "PL1744792493935483", message: "failed", merchantReference: "payses_s", status: 3 },
      { code: 3, state: "failed", payLaterOrderId: "PL1744792493935483", merchantReference: "payses_s" },
    ],
  ])("maps status body %j", async (body, expected) => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope).get(`${WEB_CHECKOUT}/status`).query({ order_id: "payses_s" }).reply(200, body)
    const { client } = makeClient()

    const status = await client.getPaymentStatus("payses_s")

    expect(status).toEqual({ ...expected, message: body.message })
    expect(seen[1].method).toBe("GET")
    expect(seen[1].headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
  })

  it("encodes the order id in the status query", async () => {
    const scope = paylater()
    withToken(scope)
      .get(`${WEB_CHECKOUT}/status`)
      .query({ order_id: "a&b=c d" })
      .reply(200, { payLaterOrderId: "PL1", message: "pending", merchantReference: "a&b=c d", status: 1 })
    const { client } = makeClient()

    await expect(client.getPaymentStatus("a&b=c d")).resolves.toMatchObject({ state: "pending" })
    expect(scope.isDone()).toBe(true)
  })

  it("refunds in full with only the order id", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope)
      .post(`${WEB_CHECKOUT}/refund`)
      .reply(200, { message: "Refund request accepted for reference Id: payses_r" })
    const { client } = makeClient()

    const result = await client.refund({ orderId: "payses_r" })

    expect(result).toEqual({ message: "Refund request accepted for reference Id: payses_r" })
    expect(seen[1].body).toBe('{"order_id":"payses_r"}')
    expect(seen[1].headers["content-type"]).toBe("application/json")
  })

  it("refunds partially with the amount as a two-decimal string", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope).post(`${WEB_CHECKOUT}/refund`).reply(200, { message: "Refund request accepted for reference Id: r2" })
    const { client } = makeClient()

    await client.refund({ orderId: "r2", amount: "120" })

    expect(seen[1].body).toBe('{"order_id":"r2","amount":"120.00"}')
  })

  it("looks up a shopper and keeps spending limits as decimal text", async () => {
    const scope = paylater()
    const seen = capture(scope)
    withToken(scope)
      .get(`${WEB_CHECKOUT}/shopper`)
      .query({ mobile_number: "97451118021", email: "a+b@example.com" })
      .reply(200, {
        shopperId: 4411,
        email: "a+b@example.com",
        mobileNumber: "97451118021",
        currentSpendingLimit: 2500.5,
        allowedSpendingLimit: "5000",
      })
    const { client } = makeClient()

    const shopper = await client.lookupShopper({ mobileNumber: "5111-8021", email: "a+b@example.com" })

    expect(shopper).toEqual({
      shopperId: "4411",
      email: "a+b@example.com",
      mobileNumber: "97451118021",
      currentSpendingLimit: "2500.50",
      allowedSpendingLimit: "5000.00",
    })
    expect(seen[1].path).toBe(`${WEB_CHECKOUT}/shopper?mobile_number=97451118021&email=a%2Bb%40example.com`)
  })

  it.each([200, 404])("answers null for Shopper not found (HTTP %i)", async (status) => {
    const scope = paylater()
    withToken(scope).get(`${WEB_CHECKOUT}/shopper`).query(true).reply(status, { message: "Shopper not found" })
    const { client } = makeClient()

    await expect(client.lookupShopper({ mobileNumber: "51118022", email: "x@example.com" })).resolves.toBeNull()
  })

  it("uses an explicit apiBaseUrl (local sandbox)", async () => {
    const scope = nock("http://127.0.0.1:4010")
      .post(TOKEN)
      .reply(200, tokenAnswer())
      .get(`${WEB_CHECKOUT}/status`)
      .query({ order_id: "x" })
      .reply(200, { message: "Order not initiated", status: 0 })
    const { client } = makeClient({ apiBaseUrl: "http://127.0.0.1:4010/" })

    await client.getPaymentStatus("x")

    expect(scope.isDone()).toBe(true)
  })

  it("uses the production host for environment production", async () => {
    const scope = nock("https://connect.paylaterapp.com")
      .post(TOKEN)
      .reply(200, tokenAnswer())
      .get(`${WEB_CHECKOUT}/status`)
      .query(true)
      .reply(200, { message: "Order not initiated", status: 0 })
    const { client } = makeClient({ environment: "production" })

    await client.getPaymentStatus("x")

    expect(scope.isDone()).toBe(true)
  })
})

import { inspect } from "node:util"
import {
  ACCESS_TOKEN,
  CLIENT_SECRET,
  TOKEN,
  WEB_CHECKOUT,
  caught,
  localServer,
  makeClient,
  paylater,
  tokenAnswer,
  useNock,
} from "./support/paylater-nock"

useNock()


const SECRETS = [CLIENT_SECRET, ACCESS_TOKEN, "Bearer", "97451118021", "51118021", "5111 8021", "refresh-token-value"]

function expectClean(text: string): void {
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret)
  }
}

describe("logs and errors never carry secrets, tokens or full mobile numbers", () => {
  it("successful calls log one line each with operation, order id, status and duration", async () => {
    const scope = paylater().post(TOKEN).reply(200, tokenAnswer())
    scope.post(`${WEB_CHECKOUT}/request-to-pay`).reply(200, {
      merchant_order_reference: "payses_log",
      status: "SUCCESS",
      expiry_date: "2026-04-28T10:15:41",
    })
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(200, { message: "Order not initiated", status: 0 })
    scope.get(`${WEB_CHECKOUT}/shopper`).query(true).reply(200, { message: "Shopper not found" })
    const { client, logs } = makeClient()

    await client.requestToPay({ mobileNumber: "+974 5111 8021", amount: "350", merchantOrderReference: "payses_log" })
    await client.getPaymentStatus("payses_log")
    await client.lookupShopper({ mobileNumber: "5111 8021", email: "shopper@example.com" })

    const calls = logs.filter((line) => line.includes("HTTP 200") && !line.includes("token"))
    expect(calls).toEqual([
      expect.stringMatching(/^debug PayLater requestToPay order=payses_log mobile=974\*{5}021: HTTP 200 in \d+ ms$/),
      expect.stringMatching(/^debug PayLater getPaymentStatus order=payses_log: HTTP 200 in \d+ ms$/),
      expect.stringMatching(/^debug PayLater lookupShopper mobile=974\*{5}021: HTTP 200 in \d+ ms$/),
    ])
    expectClean(logs.join("\n"))
    expect(logs.join("\n")).not.toContain("shopper@example.com")
  })

  it("falls back to info when the logger has no debug, with the order id shortened", async () => {
    paylater()
      .post(TOKEN)
      .reply(200, tokenAnswer())
      .get(`${WEB_CHECKOUT}/status`)
      .query(true)
      .reply(200, { message: "Order not initiated", status: 0 })
    const lines: string[] = []
    const { client } = makeClient(
      {},
      { logger: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) } }
    )

    await client.getPaymentStatus("payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5-2")

    expect(lines.some((line) => line.startsWith("PayLater getPaymentStatus order=payses_…T1V3X5-2: HTTP 200"))).toBe(true)
    expect(lines.join("\n")).not.toContain("01JD3M6ZQ8W4Y2K7N5R9T1V3X5")
  })

  it("failures of every kind are logged and thrown without secrets", async () => {
    const scope = paylater()
    scope.post(TOKEN).reply(200, tokenAnswer())
    scope.post(`${WEB_CHECKOUT}/request-to-pay`).reply(409, {
      status: "FAILED",
      message: "A Request-to-Pay already exists for this merchant order reference",
      http_code: 409,
      error_reference: "RTP-409-DUPLICATE-REFERENCE",
    })
    scope.post(`${WEB_CHECKOUT}/refund`).reply(502, "<html>Bad Gateway</html>")
    scope.get(`${WEB_CHECKOUT}/status`).query(true).times(2).reply(401, "")
    scope.post(TOKEN).reply(200, tokenAnswer())
    scope.post(TOKEN).reply(401, { error: "invalid_client", error_description: "Invalid client credentials" })
    const { client, logs } = makeClient({ maxAttempts: 1 })

    const errors = [
      await caught(client.requestToPay({ mobileNumber: "51118021", amount: "350", merchantOrderReference: "o1" })),
      await caught(client.refund({ orderId: "o2" })),
      await caught(client.getPaymentStatus("o3")),
      await caught(client.getPaymentStatus("o4")),
    ]

    expect(errors.map((e) => e.code)).toEqual(["DUPLICATE_REFERENCE", "SERVER_ERROR", "INVALID_API_KEY", "INVALID_CREDENTIALS"])
    expect(logs.filter((l) => l.startsWith("warn"))).toHaveLength(4)
    expectClean(logs.join("\n"))
    for (const error of errors) {
      expectClean(inspect(error, { depth: 10, showHidden: true }))
      expectClean(JSON.stringify(error))
    }
  })

  it("a timed-out token request does not leak the secret through the error's cause", async () => {
    paylater().post(TOKEN).delay(300).reply(200, tokenAnswer())
    const { client, logs } = makeClient({ timeoutMs: 30, maxAttempts: 1 })

    const error = await caught(client.getPaymentStatus("o"))

    expect(error.code).toBe("TIMEOUT")
    expectClean(inspect(error, { depth: 10, showHidden: true }))
    expectClean(logs.join("\n"))
  })

  it("a connection reset (real socket) is logged and thrown without secrets", async () => {
    const server = await localServer((req, res) => {
      if (req.url === TOKEN) {
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify(tokenAnswer()))
        return true
      }
      return false
    })
    try {
      const { client, logs } = makeClient({ apiBaseUrl: server.url })
      const error = await caught(client.requestToPay({ mobileNumber: "51118021", amount: "350", merchantOrderReference: "o" }))

      expect(error.code).toBe("NETWORK")
      expect(logs.filter((l) => l.startsWith("warn PayLater requestToPay order=… mobile=974*****021 failed"))).toHaveLength(1)
      expectClean(logs.join("\n"))
      expectClean(inspect(error, { depth: 10, showHidden: true }))
    } finally {
      await server.close()
    }
  })
})

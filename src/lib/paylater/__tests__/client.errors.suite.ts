import nock from "nock"
import { PayLaterError } from "../errors"
import { TOKEN, WEB_CHECKOUT, caught, makeClient, paylater, tokenAnswer, useNock } from "./support/paylater-nock"

useNock()

const LINK = {
  orderId: "payses_err",
  amount: "350.00",
  currency: "QAR",
  successRedirectUrl: "https://shop.example/ok",
  failRedirectUrl: "https://shop.example/fail",
}
const RTP = { mobileNumber: "51118021", amount: "350.00", merchantOrderReference: "payses_err" }

function answerOnce(method: "get" | "post", path: string, status: number, body: unknown) {
  const scope = paylater().post(TOKEN).reply(200, tokenAnswer())
  const interceptor = method === "get" ? scope.get(path).query(true) : scope.post(path)
  return typeof body === "string" ? interceptor.reply(status, body) : interceptor.reply(status, body as nock.Body)
}

describe("Request to Pay errors (section 7.1)", () => {
  it("409 RTP-409-DUPLICATE-REFERENCE → DUPLICATE_REFERENCE, PayLater's message kept", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/request-to-pay`, 409, {
      status: "FAILED",
      message: "A Request-to-Pay already exists for this merchant order reference",
      http_code: 409,
      error_reference: "RTP-409-DUPLICATE-REFERENCE",
    })
    const error = await caught(makeClient().client.requestToPay(RTP))

    expect(error).toBeInstanceOf(PayLaterError)
    expect(error).toMatchObject({
      code: "DUPLICATE_REFERENCE",
      httpStatus: 409,
      remoteCode: "RTP-409-DUPLICATE-REFERENCE",
      message: "A Request-to-Pay already exists for this merchant order reference",
      retryable: false,
    })
  })

  it("404 RTP-UPSTREAM-ERROR → UPSTREAM_UNAVAILABLE, retryable, says try again later", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/request-to-pay`, 404, {
      status: "FAILED",
      message: "Unable to process the Request-to-Pay now",
      http_code: 404,
      error_reference: "RTP-UPSTREAM-ERROR",
    })
    const error = await caught(makeClient().client.requestToPay(RTP))

    expect(error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", retryable: true, remoteCode: "RTP-UPSTREAM-ERROR" })
    expect(error.message).toMatch(/^Unable to process the Request-to-Pay now/)
    expect(error.message).toMatch(/try again later/i)
  })

  it("an unknown RTP error_reference is UNEXPECTED_RESPONSE with the reference kept", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/request-to-pay`, 400, {
      status: "FAILED",
      message: "Mobile number is not registered",
      http_code: 400,
      error_reference: "RTP-400-UNKNOWN-SHOPPER",
    })
    const error = await caught(makeClient().client.requestToPay(RTP))

    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", remoteCode: "RTP-400-UNKNOWN-SHOPPER" })
    expect(error.message).toContain("Mobile number is not registered")
  })
})

describe("payment link errors (section 7.2 and published strings), classified by text", () => {
  it.each([
    ["Merchant ID cannot be null", 400, "MERCHANT_MISSING"],
    ["Merchant ID cannot be null", 500, "MERCHANT_MISSING"],
    ["Order ID must be unique", 400, "ORDER_ID_NOT_UNIQUE"],
    ["Order ID must be unique", 200, "ORDER_ID_NOT_UNIQUE"],
    ["Order ID is required", 400, "ORDER_ID_REQUIRED"],
    ["Transaction Reference is required", 400, "ORDER_ID_REQUIRED"],
  ])("%j (HTTP %i) → %s", async (text, status, code) => {
    answerOnce("post", WEB_CHECKOUT, status, { error: text })
    const error = await caught(makeClient().client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code, message: text, remoteCode: text, httpStatus: status })
  })

  it.each([
    ["Amount must be between 300 and 25000", "300.00", "25000.00"],
    ["Amount must be between 300 and 4000", "300.00", "4000.00"],
    ["Amount must be between 500.5 and 1999.99", "500.50", "1999.99"],
    ["amount must be between 1000 and 2000 QAR", "1000.00", "2000.00"],
  ])("%j → AMOUNT_OUT_OF_RANGE with the outlet's real bounds", async (text, min, max) => {
    answerOnce("post", WEB_CHECKOUT, 400, { error: text })
    const error = await caught(makeClient().client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", message: text, details: { min, max } })
  })

  it("an unknown error string is UNEXPECTED_RESPONSE and keeps the text", async () => {
    answerOnce("post", WEB_CHECKOUT, 400, { error: "Outlet is suspended" })
    const error = await caught(makeClient().client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", remoteCode: "Outlet is suspended" })
    expect(error.message).toContain("Outlet is suspended")
  })

  it("status check without order id: {error: Order ID is required} → ORDER_ID_REQUIRED", async () => {
    answerOnce("get", `${WEB_CHECKOUT}/status`, 400, { error: "Order ID is required" })
    const error = await caught(makeClient().client.getPaymentStatus("x"))

    expect(error).toMatchObject({ code: "ORDER_ID_REQUIRED" })
  })
})

describe("refund errors", () => {
  it.each([
    ["Refund cannot be processed: payment was made less than 10 minutes ago, try later", "REFUND_TOO_EARLY", true],
    ["The transaction was made more than 29 days ago", "REFUND_WINDOW_CLOSED", false],
    ["Invalid transaction reference", "REFUND_REJECTED", false],
    ["Invalid transaction type", "REFUND_REJECTED", false],
    ["Order contains transactions other than down payment", "REFUND_REJECTED", false],
  ])("Refund Error %j → %s", async (text, code, retryable) => {
    answerOnce("post", `${WEB_CHECKOUT}/refund`, 400, { error: "Refund Error", message: text })
    const error = await caught(makeClient().client.refund({ orderId: "payses_r" }))

    expect(error).toMatchObject({ code, message: text, remoteCode: "Refund Error", retryable })
  })

  it("Transaction Reference is required → ORDER_ID_REQUIRED", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/refund`, 400, { error: "Transaction Reference is required" })
    const error = await caught(makeClient().client.refund({ orderId: "payses_r" }))

    expect(error.code).toBe("ORDER_ID_REQUIRED")
  })
})

describe("answers nobody recognises", () => {
  const cases: Array<[string, number, unknown]> = [
    ["HTML page", 200, "<html><body>Gateway</body></html>"],
    ["empty body", 200, ""],
    ["unknown JSON", 200, { ok: true }],
    ["JSON array", 200, [1, 2]],
    ["JSON null", 200, "null"],
    ["truncated JSON", 200, '{"paymentLinkUrl":"https://pay'],
    ["schema mismatch: URL is not a URL", 200, { paymentLinkUrl: "not a url" }],
    ["schema mismatch: javascript URL", 200, { paymentLinkUrl: "javascript:alert(1)" }],
    ["success body with an error status", 302, { paymentLinkUrl: "https://pay.example/x" }],
    ["404 HTML", 404, "<html>Not Found</html>"],
  ]

  it.each(cases)("link create: %s → UNEXPECTED_RESPONSE", async (_name, status, body) => {
    answerOnce("post", WEB_CHECKOUT, status, body)
    const error = await caught(makeClient().client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", httpStatus: status })
  })

  it.each([
    ["status 7", { payLaterOrderId: "PL1", message: "weird", merchantReference: "o", status: 7 }],
    ["status missing", { payLaterOrderId: "PL1", message: "success", merchantReference: "o" }],
    ["status for another order", { payLaterOrderId: "PL1", message: "success", merchantReference: "other", status: 2 }],
    ["status as text word", { message: "success", status: "success" }],
    ["HTML", "<!doctype html><title>Maintenance</title>"],
  ])("status: %s → UNEXPECTED_RESPONSE", async (_name, body) => {
    answerOnce("get", `${WEB_CHECKOUT}/status`, 200, body)
    const error = await caught(makeClient().client.getPaymentStatus("o"))

    expect(error.code).toBe("UNEXPECTED_RESPONSE")
  })

  it.each([
    ["another reference", { merchant_order_reference: "other", status: "SUCCESS", expiry_date: "2026-04-28T10:15:41.477" }],
    ["bad expiry_date", { merchant_order_reference: "payses_err", status: "SUCCESS", expiry_date: "tomorrow" }],
    ["status not SUCCESS", { merchant_order_reference: "payses_err", status: "QUEUED", expiry_date: "2026-04-28T10:15:41" }],
  ])("request to pay: %s → UNEXPECTED_RESPONSE", async (_name, body) => {
    answerOnce("post", `${WEB_CHECKOUT}/request-to-pay`, 200, body)
    const error = await caught(makeClient().client.requestToPay(RTP))

    expect(error.code).toBe("UNEXPECTED_RESPONSE")
  })

  it.each([
    ["limit is a word", { shopperId: "1", email: "e@x.qa", mobileNumber: "97451118021", currentSpendingLimit: "lots", allowedSpendingLimit: "1" }],
    ["fields missing", { shopperId: "1" }],
  ])("shopper: %s → UNEXPECTED_RESPONSE", async (_name, body) => {
    answerOnce("get", `${WEB_CHECKOUT}/shopper`, 200, body)
    const error = await caught(makeClient().client.lookupShopper({ mobileNumber: "51118021", email: "e@x.qa" }))

    expect(error.code).toBe("UNEXPECTED_RESPONSE")
  })

  it("refund: a 200 with an error key and no message is not a success", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/refund`, 200, { error: "Something odd" })
    const error = await caught(makeClient().client.refund({ orderId: "r" }))

    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", remoteCode: "Something odd" })
  })

  it("error details never echo the body (it may hold a shopper's data)", async () => {
    answerOnce("get", `${WEB_CHECKOUT}/shopper`, 200, { shopperId: "1", mobileNumber: "97451118029" })
    const error = await caught(makeClient().client.lookupShopper({ mobileNumber: "51118021", email: "e@x.qa" }))

    expect(error.code).toBe("UNEXPECTED_RESPONSE")
    expect(JSON.stringify(error.details)).not.toContain("97451118029")
    expect(error.message).not.toContain("97451118029")
  })
})

describe("status answers carried by an error status", () => {
  it("Order not initiated is an answer even with HTTP 404", async () => {
    answerOnce("get", `${WEB_CHECKOUT}/status`, 404, { message: "Order not initiated", status: 0 })
    await expect(makeClient().client.getPaymentStatus("o")).resolves.toMatchObject({ state: "not_initiated" })
  })

  it("a success status with HTTP 404 is not trusted", async () => {
    answerOnce("get", `${WEB_CHECKOUT}/status`, 404, {
      payLaterOrderId: "PL1",
      message: "success",
      merchantReference: "o",
      status: 2,
    })
    const error = await caught(makeClient().client.getPaymentStatus("o"))
    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", httpStatus: 404 })
  })

  it("a very long remote message is clipped in our message", async () => {
    answerOnce("post", WEB_CHECKOUT, 400, { error: "x".repeat(5000) })
    const error = await caught(makeClient().client.createPaymentLink(LINK))
    expect(error.code).toBe("UNEXPECTED_RESPONSE")
    expect(error.message.length).toBeLessThan(500)
  })
})

describe("5xx", () => {
  it.each([
    [500, { timestamp: "2026-01-01T00:00:00", status: 500, error: "Internal Server Error", path: "/x" }],
    [502, "<html>Bad Gateway</html>"],
    [503, ""],
  ])("HTTP %i with an unrecognised body → SERVER_ERROR, retryable", async (status, body) => {
    answerOnce("post", WEB_CHECKOUT, status, body)
    const error = await caught(makeClient().client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code: "SERVER_ERROR", httpStatus: status, retryable: true })
    expect(error.details.outcomeUnknown).toBe(true)
  })

  it("a refund 5xx is not retryable: it may have refunded", async () => {
    answerOnce("post", `${WEB_CHECKOUT}/refund`, 502, "")
    const error = await caught(makeClient().client.refund({ orderId: "r" }))

    expect(error).toMatchObject({ code: "SERVER_ERROR", retryable: false })
  })
})

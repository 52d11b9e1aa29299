import nock from "nock"
import { backoffDelay } from "../retry"
import {
  TOKEN,
  WEB_CHECKOUT,
  caught,
  closedPort,
  localServer,
  makeClient,
  paylater,
  tokenAnswer,
  useNock,
} from "./support/paylater-nock"

useNock()


// Generous enough that a prompt mock answer (the token) never times out on a loaded machine.
const SLOW_TIMEOUT_MS = 600
const SLOW_ANSWER_MS = 3000
const NOT_INITIATED = { message: "Order not initiated", status: 0 }
const LINK = {
  orderId: "payses_res",
  amount: "350.00",
  currency: "QAR",
  successRedirectUrl: "https://shop.example/ok",
  failRedirectUrl: "https://shop.example/fail",
}
const RTP = { mobileNumber: "51118021", amount: "350.00", merchantOrderReference: "payses_res" }

/** An interceptor answering `status` every time and counting how often it was asked. */
function counted(scope: nock.Interceptor, status: number, body: nock.Body, delayMs = 0) {
  const counter = { calls: 0 }
  const interceptor = delayMs > 0 ? scope.times(10).delay(delayMs) : scope.times(10)
  interceptor.reply(() => {
    counter.calls++
    return [status, body]
  })
  return counter
}

function withToken(): nock.Scope {
  return paylater().post(TOKEN).reply(200, tokenAnswer())
}

describe("timeouts", () => {
  it("a slow status answer → TIMEOUT (retryable) after maxAttempts tries", async () => {
    const status = counted(withToken().get(`${WEB_CHECKOUT}/status`).query(true), 200, NOT_INITIATED, SLOW_ANSWER_MS)
    const { client, sleeps } = makeClient({ timeoutMs: SLOW_TIMEOUT_MS, maxAttempts: 3 })

    const error = await caught(client.getPaymentStatus("a"))

    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true })
    expect(error.message).toContain(`${SLOW_TIMEOUT_MS} ms`)
    expect(status.calls).toBe(3)
    expect(sleeps).toHaveLength(2)
  })

  it("a slow link create → TIMEOUT once, never repeated, outcome unknown", async () => {
    const create = counted(withToken().post(WEB_CHECKOUT), 200, { paymentLinkUrl: "https://p.example/x" }, SLOW_ANSWER_MS)
    const { client, sleeps } = makeClient({ timeoutMs: SLOW_TIMEOUT_MS })

    const error = await caught(client.createPaymentLink(LINK))

    expect(error).toMatchObject({ code: "TIMEOUT", retryable: false, details: { outcomeUnknown: true } })
    expect(create.calls).toBe(1)
    expect(sleeps).toEqual([])
  })

  it("a slow Request to Pay → TIMEOUT once", async () => {
    const rtp = counted(withToken().post(`${WEB_CHECKOUT}/request-to-pay`), 200, {}, SLOW_ANSWER_MS)
    const error = await caught(makeClient({ timeoutMs: SLOW_TIMEOUT_MS }).client.requestToPay(RTP))

    expect(error.code).toBe("TIMEOUT")
    expect(rtp.calls).toBe(1)
  })

  it("a slow refund → TIMEOUT once, not retryable", async () => {
    const refund = counted(withToken().post(`${WEB_CHECKOUT}/refund`), 200, { message: "ok" }, SLOW_ANSWER_MS)
    const error = await caught(makeClient({ timeoutMs: SLOW_TIMEOUT_MS }).client.refund({ orderId: "r" }))

    expect(error).toMatchObject({ code: "TIMEOUT", retryable: false })
    expect(refund.calls).toBe(1)
  })

  it("a slow token endpoint → TIMEOUT", async () => {
    paylater().post(TOKEN).times(3).delay(SLOW_ANSWER_MS).reply(200, tokenAnswer())
    const error = await caught(makeClient({ timeoutMs: SLOW_TIMEOUT_MS }).client.getPaymentStatus("a"))

    expect(error).toMatchObject({ code: "TIMEOUT", details: { operation: "token" } })
  })
})

describe("retries of reads", () => {
  it("status: 5xx, 5xx, then an answer → three requests with growing backoff", async () => {
    const scope = withToken()
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(500, "")
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(503, "<html>busy</html>")
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(200, NOT_INITIATED)
    const { client, sleeps } = makeClient({ maxAttempts: 3 })

    await expect(client.getPaymentStatus("a")).resolves.toMatchObject({ code: 0 })
    expect(sleeps).toEqual([backoffDelay(1, () => 0.5), backoffDelay(2, () => 0.5)])
    expect(sleeps[1]).toBeGreaterThan(sleeps[0])
    expect(scope.isDone()).toBe(true)
  })

  it.each([1, 2, 5])("status: persistent 5xx is tried exactly maxAttempts=%i times", async (maxAttempts) => {
    const status = counted(withToken().get(`${WEB_CHECKOUT}/status`).query(true), 502, "")
    const error = await caught(makeClient({ maxAttempts }).client.getPaymentStatus("a"))

    expect(error).toMatchObject({ code: "SERVER_ERROR", retryable: true })
    expect(status.calls).toBe(maxAttempts)
  })

  it("shopper lookup is retried on 5xx too", async () => {
    const shopper = counted(withToken().get(`${WEB_CHECKOUT}/shopper`).query(true), 500, "")
    await caught(makeClient({ maxAttempts: 2 }).client.lookupShopper({ mobileNumber: "51118021", email: "a@b.qa" }))

    expect(shopper.calls).toBe(2)
  })

  it("status: a classified answer (ORDER_ID_REQUIRED) is not retried", async () => {
    const status = counted(withToken().get(`${WEB_CHECKOUT}/status`).query(true), 400, { error: "Order ID is required" })
    const { client, sleeps } = makeClient()

    await caught(client.getPaymentStatus("a"))

    expect(status.calls).toBe(1)
    expect(sleeps).toEqual([])
  })

  it("status: an unexpected 200 body is not retried", async () => {
    const status = counted(withToken().get(`${WEB_CHECKOUT}/status`).query(true), 200, { foo: 1 })
    await caught(makeClient().client.getPaymentStatus("a"))

    expect(status.calls).toBe(1)
  })

  it("status: a connection reset on every try → NETWORK after maxAttempts tries", async () => {
    const server = await localServer((req, res) => {
      if (req.url === TOKEN) {
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify(tokenAnswer()))
        return true
      }
      return false
    })
    try {
      const error = await caught(makeClient({ apiBaseUrl: server.url, maxAttempts: 3 }).client.getPaymentStatus("a"))

      expect(error).toMatchObject({ code: "NETWORK", retryable: true })
      expect(server.hits.filter((hit) => hit.startsWith("GET"))).toHaveLength(3)
    } finally {
      await server.close()
    }
  })

  it("token: connection refused → NETWORK after maxAttempts tries", async () => {
    const { client, sleeps } = makeClient({ apiBaseUrl: await closedPort(), maxAttempts: 2 })

    const error = await caught(client.getPaymentStatus("a"))

    expect(error).toMatchObject({ code: "NETWORK", retryable: true, details: { operation: "token" } })
    expect(sleeps).toHaveLength(1)
  })
})

describe("creates and refunds are never repeated", () => {
  it.each([
    ["createPaymentLink", WEB_CHECKOUT],
    ["requestToPay", `${WEB_CHECKOUT}/request-to-pay`],
    ["refund", `${WEB_CHECKOUT}/refund`],
  ])("%s: a 5xx is sent once", async (operation, path) => {
    const calls = counted(withToken().post(path), 500, "")
    const { client, sleeps } = makeClient({ maxAttempts: 5 })
    const run: Record<string, () => Promise<unknown>> = {
      createPaymentLink: () => client.createPaymentLink(LINK),
      requestToPay: () => client.requestToPay(RTP),
      refund: () => client.refund({ orderId: "r", amount: "10.00" }),
    }

    const error = await caught(run[operation]())

    expect(error.code).toBe("SERVER_ERROR")
    expect(calls.calls).toBe(1)
    expect(sleeps).toEqual([])
  })

  it("a refund whose connection dropped after sending is NETWORK with unknown outcome, not retryable", async () => {
    const server = await localServer((req, res) => {
      if (req.url === TOKEN) {
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify(tokenAnswer()))
        return true
      }
      return false
    })
    try {
      const error = await caught(makeClient({ apiBaseUrl: server.url, maxAttempts: 5 }).client.refund({ orderId: "r" }))

      expect(error).toMatchObject({ code: "NETWORK", retryable: false, details: { outcomeUnknown: true } })
      expect(server.hits.filter((hit) => hit.endsWith("/refund"))).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})

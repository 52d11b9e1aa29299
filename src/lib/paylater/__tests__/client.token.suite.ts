import nock from "nock"
import { refreshMoment } from "../token"
import {
  TOKEN,
  WEB_CHECKOUT,
  capture,
  caught,
  makeClient,
  paylater,
  tokenAnswer,
  useNock,
} from "./support/paylater-nock"

useNock()


const NOT_INITIATED = { message: "Order not initiated", status: 0 }
const LINK = {
  orderId: "payses_tok",
  amount: "400.00",
  currency: "QAR",
  successRedirectUrl: "https://shop.example/ok",
  failRedirectUrl: "https://shop.example/fail",
}

function statusTimes(scope: nock.Scope, times: number): nock.Scope {
  return scope.get(`${WEB_CHECKOUT}/status`).query(true).times(times).reply(200, NOT_INITIATED)
}

function authorizations(seen: ReturnType<typeof capture>): unknown[] {
  return seen.filter((r) => r.path !== TOKEN).map((r) => r.headers.authorization)
}

describe("token cache", () => {
  it("reuses one token for many calls while it is fresh", async () => {
    let tokenRequests = 0
    const scope = paylater()
    scope.post(TOKEN).times(5).reply(() => {
      tokenRequests++
      return [200, tokenAnswer("tok-a")]
    })
    statusTimes(scope, 3)
    const { client } = makeClient()

    for (let i = 0; i < 3; i++) {
      await client.getPaymentStatus(`o${i}`)
    }

    expect(tokenRequests).toBe(1)
  })

  it("refreshes min(30 s, 10 %) before expires_in runs out", async () => {
    expect(refreshMoment(0, 300_000)).toBe(270_000)
    expect(refreshMoment(0, 60_000)).toBe(54_000)

    let n = 0
    const scope = paylater()
    const seen = capture(scope)
    scope.post(TOKEN).times(3).reply(() => [200, tokenAnswer(`tok-${++n}`, 300)])
    statusTimes(scope, 3)
    const { client, clock } = makeClient()
    const start = clock.now

    await client.getPaymentStatus("a")
    clock.now = start + 269_999
    await client.getPaymentStatus("b")
    clock.now = start + 270_000
    await client.getPaymentStatus("c")

    expect(n).toBe(2)
    expect(authorizations(seen)).toEqual(["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"])
  })

  it("a token answer without expires_in is kept for a conservative 60 s", async () => {
    let n = 0
    const scope = paylater()
    scope.post(TOKEN).times(3).reply(() => [200, { access_token: `tok-${++n}`, token_type: "Bearer" }])
    statusTimes(scope, 2)
    const { client, clock } = makeClient()
    const start = clock.now

    await client.getPaymentStatus("a")
    clock.now = start + 54_000
    await client.getPaymentStatus("b")

    expect(n).toBe(2)
  })

  it("50 concurrent calls share exactly one token request", async () => {
    let tokenRequests = 0
    const scope = paylater()
    scope
      .post(TOKEN)
      .times(50)
      .delay(20)
      .reply(() => {
        tokenRequests++
        return [200, tokenAnswer("tok-shared")]
      })
    statusTimes(scope, 50)
    const seen = capture(scope)
    const { client } = makeClient()

    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.getPaymentStatus(`o-${i}`)))

    expect(results).toHaveLength(50)
    expect(tokenRequests).toBe(1)
    expect(new Set(authorizations(seen))).toEqual(new Set(["Bearer tok-shared"]))
    expect(authorizations(seen)).toHaveLength(50)
  })

  it("a failed token fetch is shared by its waiters and not cached", async () => {
    const scope = paylater()
    scope.post(TOKEN).reply(401, { error: "invalid_client", error_description: "Invalid client credentials" })
    scope.post(TOKEN).reply(200, tokenAnswer("tok-later"))
    statusTimes(scope, 1)
    const { client } = makeClient()

    const errors = await Promise.all([caught(client.getPaymentStatus("a")), caught(client.getPaymentStatus("b"))])
    expect(errors.map((e) => e.code)).toEqual(["INVALID_CREDENTIALS", "INVALID_CREDENTIALS"])

    await expect(client.getPaymentStatus("c")).resolves.toMatchObject({ code: 0 })
    expect(scope.isDone()).toBe(true)
  })
})

describe("token endpoint errors", () => {
  it.each([
    [401, "invalid_client"],
    [400, "invalid_client"],
    [401, "unauthorized_client"],
    [400, "invalid_grant"],
  ])("HTTP %i %s → INVALID_CREDENTIALS, not retried", async (status, error) => {
    let tokenRequests = 0
    paylater()
      .post(TOKEN)
      .times(5)
      .reply(() => {
        tokenRequests++
        return [status, { error, error_description: "Invalid client or Invalid client credentials" }]
      })
    const { client, sleeps } = makeClient()

    const failure = await caught(client.getPaymentStatus("a"))

    expect(failure).toMatchObject({ code: "INVALID_CREDENTIALS", remoteCode: error, httpStatus: status })
    expect(failure.message).toContain("PayLater refused the client id/secret: check clientId and clientSecret")
    expect(tokenRequests).toBe(1)
    expect(sleeps).toEqual([])
  })

  it("unsupported_grant_type is not blamed on the credentials", async () => {
    paylater().post(TOKEN).reply(400, { error: "unsupported_grant_type", error_description: "Unsupported grant_type" })
    const failure = await caught(makeClient().client.getPaymentStatus("a"))

    expect(failure).toMatchObject({ code: "UNEXPECTED_RESPONSE", remoteCode: "unsupported_grant_type" })
  })

  it("a token endpoint answering HTML (wrong apiBaseUrl) → UNEXPECTED_RESPONSE naming apiBaseUrl", async () => {
    paylater().post(TOKEN).reply(404, "<html>Not Found</html>")
    const failure = await caught(makeClient().client.getPaymentStatus("a"))

    expect(failure.code).toBe("UNEXPECTED_RESPONSE")
    expect(failure.message).toContain("apiBaseUrl")
  })

  it("a 200 without access_token → UNEXPECTED_RESPONSE", async () => {
    paylater().post(TOKEN).reply(200, { token_type: "Bearer", expires_in: 300 })
    const failure = await caught(makeClient().client.getPaymentStatus("a"))

    expect(failure.code).toBe("UNEXPECTED_RESPONSE")
  })

  it("token 5xx is retried with backoff, then succeeds", async () => {
    const scope = paylater()
    scope.post(TOKEN).reply(503, "")
    scope.post(TOKEN).reply(502, "<html>bad gateway</html>")
    scope.post(TOKEN).reply(200, tokenAnswer())
    statusTimes(scope, 1)
    const { client, sleeps } = makeClient()

    await expect(client.getPaymentStatus("a")).resolves.toMatchObject({ code: 0 })
    expect(sleeps).toEqual([250 + 50, 500 + 50])
    expect(scope.isDone()).toBe(true)
  })

  it("token 5xx on every attempt gives up after maxAttempts without multiplying attempts", async () => {
    let tokenRequests = 0
    paylater()
      .post(TOKEN)
      .times(20)
      .reply(() => {
        tokenRequests++
        return [500, ""]
      })
    const { client } = makeClient({ maxAttempts: 3 })

    const failure = await caught(client.getPaymentStatus("a"))

    expect(failure.code).toBe("SERVER_ERROR")
    expect(tokenRequests).toBe(3)
  })
})

describe("401 from an API call", () => {
  it("drops the token, fetches one new token and retries the call once", async () => {
    const scope = paylater()
    const seen = capture(scope)
    scope.post(TOKEN).reply(200, tokenAnswer("tok-old"))
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(401, "")
    scope.post(TOKEN).reply(200, tokenAnswer("tok-new"))
    scope.get(`${WEB_CHECKOUT}/status`).query(true).reply(200, NOT_INITIATED)
    const { client } = makeClient()

    await expect(client.getPaymentStatus("a")).resolves.toMatchObject({ state: "not_initiated" })
    expect(authorizations(seen)).toEqual(["Bearer tok-old", "Bearer tok-new"])
    expect(scope.isDone()).toBe(true)
  })

  it('treats {"error":"Invalid API Key"} as a refused token whatever the status', async () => {
    const scope = paylater()
    scope.post(TOKEN).reply(200, tokenAnswer("tok-old"))
    scope.post(WEB_CHECKOUT).reply(403, { error: "Invalid API Key" })
    scope.post(TOKEN).reply(200, tokenAnswer("tok-new"))
    scope.post(WEB_CHECKOUT).reply(200, { paymentLinkUrl: "https://pay.example/l" })
    const { client } = makeClient()

    await expect(client.createPaymentLink(LINK)).resolves.toEqual({ paymentLinkUrl: "https://pay.example/l" })
    expect(scope.isDone()).toBe(true)
  })

  it.each([
    [401, ""],
    [401, { error: "Invalid API Key" }],
    [200, { error: "Invalid API Key" }],
  ])("a second refusal (HTTP %i %j) → INVALID_API_KEY, no third attempt", async (status, body) => {
    let creates = 0
    const scope = paylater()
    scope.post(TOKEN).times(2).reply(200, tokenAnswer())
    scope
      .post(WEB_CHECKOUT)
      .times(5)
      .reply(() => {
        creates++
        return [status, body]
      })
    const { client } = makeClient()

    const failure = await caught(client.createPaymentLink(LINK))

    expect(failure).toMatchObject({ code: "INVALID_API_KEY", httpStatus: status })
    expect(creates).toBe(2)
  })

  it("after INVALID_API_KEY the next call starts with a fresh token", async () => {
    let n = 0
    const scope = paylater()
    const seen = capture(scope)
    scope.post(TOKEN).times(3).reply(() => [200, tokenAnswer(`tok-${++n}`)])
    scope.get(`${WEB_CHECKOUT}/status`).query(true).times(2).reply(401, "")
    statusTimes(scope, 1)
    const { client } = makeClient()

    await caught(client.getPaymentStatus("a"))
    await client.getPaymentStatus("b")

    expect(authorizations(seen)).toEqual(["Bearer tok-1", "Bearer tok-2", "Bearer tok-3"])
  })

  it("50 concurrent calls refused at once still cause one token refresh", async () => {
    let n = 0
    const scope = paylater()
    scope.post(TOKEN).times(10).delay(10).reply(() => [200, tokenAnswer(`tok-${++n}`)])
    scope
      .get(`${WEB_CHECKOUT}/status`)
      .query(true)
      .times(100)
      .reply(function () {
        return this.req.headers.authorization === "Bearer tok-1" ? [401, ""] : [200, NOT_INITIATED]
      })
    const { client } = makeClient()

    await Promise.all(Array.from({ length: 50 }, (_, i) => client.getPaymentStatus(`o-${i}`)))

    expect(n).toBe(2)
  })
})

describe("checkConnection", () => {
  it("fetches one fresh token, keeps nothing, and answers without the token", async () => {
    let tokenRequests = 0
    const scope = paylater()
    scope.post(TOKEN).times(3).reply(() => {
      tokenRequests++
      return [200, tokenAnswer(`tok-${tokenRequests}`)]
    })
    statusTimes(scope, 1)
    const { client } = makeClient()

    const result = await client.checkConnection()
    expect(Object.keys(result)).toEqual(["durationMs"])
    expect(JSON.stringify(result)).not.toMatch(/tok-/)
    // Not kept: the next call fetches its own token.
    await client.getPaymentStatus("o1")
    expect(tokenRequests).toBe(2)
  })

  it("refused credentials → INVALID_CREDENTIALS, asked once (no retries)", async () => {
    let tokenRequests = 0
    paylater()
      .post(TOKEN)
      .times(3)
      .reply(() => {
        tokenRequests++
        return [401, { error: "invalid_client", error_description: "Invalid client credentials" }]
      })
    const error = await caught(makeClient().client.checkConnection())
    expect(error.code).toBe("INVALID_CREDENTIALS")
    expect(tokenRequests).toBe(1)
  })
})

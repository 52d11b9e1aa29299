import { API_BASE_PATH, TOKEN_PATH } from ".."
import { MINUTE, client, harness, linkBody, type Harness } from "./helpers"

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const FORM = { headers: { "content-type": "application/x-www-form-urlencoded" } }

describe("sandbox: OAuth token endpoint", () => {
  let h: Harness

  beforeAll(async () => {
    h = await harness({ clientId: "merchant-138", clientSecret: "s3cret" })
  })
  afterAll(() => h.sandbox.stop())
  beforeEach(() => h.sandbox.reset())

  it("issues a Keycloak-shaped token for client_credentials", async () => {
    const res = await h.http.post(
      TOKEN_PATH,
      form({ grant_type: "client_credentials", client_id: "merchant-138", client_secret: "s3cret" }),
      FORM
    )
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toMatch(/application\/json/)
    expect(res.data).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      token_type: "Bearer",
      expires_in: 300,
      refresh_token: expect.any(String),
      refresh_expires_in: 1800,
      scope: expect.any(String),
      session_state: expect.stringMatching(/^[0-9a-f-]{36}$/),
      "not-before-policy": 0,
    })
  })

  it("accepts the client credentials as HTTP Basic too", async () => {
    const basic = Buffer.from("merchant-138:s3cret").toString("base64")
    const res = await h.http.post(TOKEN_PATH, form({ grant_type: "client_credentials" }), {
      headers: { ...FORM.headers, authorization: `Basic ${basic}` },
    })
    expect(res.status).toBe(200)
  })

  it.each([
    ["wrong secret", { client_id: "merchant-138", client_secret: "nope" }],
    ["unknown client", { client_id: "merchant-1", client_secret: "s3cret" }],
    ["no credentials", {}],
  ])("answers 401 invalid_client for %s", async (_name, creds) => {
    const res = await h.http.post(TOKEN_PATH, form({ grant_type: "client_credentials", ...creds }), FORM)
    expect(res.status).toBe(401)
    expect(res.data).toEqual({
      error: "invalid_client",
      error_description: "Invalid client or Invalid client credentials",
    })
  })

  it("answers 400 unsupported_grant_type for other grants", async () => {
    const res = await h.http.post(
      TOKEN_PATH,
      form({ grant_type: "password", client_id: "merchant-138", client_secret: "s3cret", username: "a", password: "b" }),
      FORM
    )
    expect(res.status).toBe(400)
    expect(res.data.error).toBe("unsupported_grant_type")
    expect(typeof res.data.error_description).toBe("string")
  })

  it("answers 400 invalid_request without grant_type", async () => {
    const res = await h.http.post(TOKEN_PATH, form({ client_id: "merchant-138", client_secret: "s3cret" }), FORM)
    expect(res.status).toBe(400)
    expect(res.data.error).toBe("invalid_request")
  })

  it("refuses GET on the token endpoint", async () => {
    expect((await h.http.get(TOKEN_PATH)).status).toBe(405)
  })

  it("exchanges a refresh token once", async () => {
    const first = await h.http.post(
      TOKEN_PATH,
      form({ grant_type: "client_credentials", client_id: "merchant-138", client_secret: "s3cret" }),
      FORM
    )
    const refresh = form({
      grant_type: "refresh_token",
      refresh_token: first.data.refresh_token,
      client_id: "merchant-138",
      client_secret: "s3cret",
    })
    const second = await h.http.post(TOKEN_PATH, refresh, FORM)
    expect(second.status).toBe(200)
    expect(second.data.access_token).not.toBe(first.data.access_token)
    const again = await h.http.post(TOKEN_PATH, refresh, FORM)
    expect(again.status).toBe(400)
    expect(again.data.error).toBe("invalid_grant")
  })

  describe("bearer on the API", () => {
    // Every row has all three columns: jest reads an extra parameter as a `done` callback.
    const calls: Array<[string, string, unknown]> = [
      ["link", "post", linkBody()],
      ["rtp", "post", {}],
      ["status", "get", undefined],
      ["refund", "post", { order_id: "x" }],
      ["shopper", "get", undefined],
    ]
    const paths: Record<string, string> = {
      link: "",
      rtp: "/request-to-pay",
      status: "/status?order_id=x",
      refund: "/refund",
      shopper: "/shopper?mobile_number=97451118021&email=a@b.c",
    }

    it.each(calls)("%s: missing bearer → 401 Invalid API Key", async (name, method, body) => {
      const c = client(`${h.sandbox.url}${API_BASE_PATH}`)
      const res = method === "get" ? await c.get(paths[name]) : await c.post(paths[name], body)
      expect(res.status).toBe(401)
      expect(res.data).toEqual({ error: "Invalid API Key" })
    })

    it.each(calls)("%s: unknown bearer → 401 Invalid API Key", async (name, method, body) => {
      const c = client(`${h.sandbox.url}${API_BASE_PATH}`)
      c.defaults.headers.common.authorization = "Bearer not-a-token"
      const res = method === "get" ? await c.get(paths[name]) : await c.post(paths[name], body)
      expect(res.status).toBe(401)
      expect(res.data).toEqual({ error: "Invalid API Key" })
    })

    it("a token expires after expires_in on the virtual clock", async () => {
      const api = await h.api()
      expect((await api.get("/status?order_id=x")).status).toBe(200)
      // A margin because the virtual clock keeps running with real time.
      h.sandbox.advanceClock(270_000)
      expect((await api.get("/status?order_id=x")).status).toBe(200)
      h.sandbox.advanceClock(30_000)
      const res = await api.get("/status?order_id=x")
      expect(res.status).toBe(401)
      expect(res.data).toEqual({ error: "Invalid API Key" })
    })

    it("reset() forgets issued tokens", async () => {
      const api = await h.api()
      h.sandbox.reset()
      expect((await api.get("/status?order_id=x")).status).toBe(401)
    })
  })

  it("honours tokenLifetimeSeconds", async () => {
    const short = await harness({ tokenLifetimeSeconds: 60 })
    try {
      const res = await short.http.post(
        TOKEN_PATH,
        form({ grant_type: "client_credentials", client_id: "sandbox-client", client_secret: "sandbox-secret" }),
        FORM
      )
      expect(res.data.expires_in).toBe(60)
      const api = await short.api()
      short.sandbox.advanceClock(MINUTE)
      expect((await api.get("/status?order_id=x")).status).toBe(401)
    } finally {
      await short.sandbox.stop()
    }
  })

  it("records token calls without the secret", async () => {
    await h.token()
    const rec = h.sandbox.requests().find((r) => r.endpoint === "token")
    expect(rec).toMatchObject({ method: "POST", path: TOKEN_PATH, status: 200 })
    expect(rec?.body).toEqual({ grant_type: "client_credentials", client_id: "merchant-138" })
    expect(JSON.stringify(h.sandbox.requests())).not.toContain("s3cret")
  })
})

import axios from "axios"
import { TOKEN_PATH } from ".."
import { harness, linkBody, type Harness } from "./helpers"

describe("sandbox: endpoint faults", () => {
  let h: Harness

  beforeAll(async () => {
    h = await harness()
  })
  afterAll(() => h.sandbox.stop())
  beforeEach(() => h.sandbox.reset())

  const lastRecord = (endpoint: string) => h.sandbox.requests().filter((r) => r.endpoint === endpoint).pop()

  it("slow: waits, then answers normally", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "status", mode: "slow", delayMs: 100 })
    const res = await api.get("/status", { params: { order_id: "x" } })
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ message: "Order not initiated", status: 0 })
    expect(lastRecord("status")).toMatchObject({ fault: "slow", status: 200 })
  })

  it("error: 500 JSON by default, for the next call only", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "link", mode: "error" })
    const res = await api.post("", linkBody())
    expect(res.status).toBe(500)
    expect(res.headers["content-type"]).toMatch(/application\/json/)
    expect(res.data).toEqual({ error: "Internal Server Error", status: 500 })
    expect((await api.post("", linkBody())).status).toBe(200)
    expect(lastRecord("link")?.fault).toBeUndefined()
  })

  it("error: 502/503/504 look like a proxy's HTML page; body:'json' overrides", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "rtp", mode: "error", status: 503 })
    h.sandbox.fault({ endpoint: "rtp", mode: "error", status: 502, body: "json" })
    h.sandbox.fault({ endpoint: "rtp", mode: "error", status: 500, body: "text" })
    const a = await api.post("/request-to-pay", {})
    expect(a.status).toBe(503)
    expect(a.headers["content-type"]).toMatch(/text\/html/)
    expect(a.data).toContain("503 Service Unavailable")
    const b = await api.post("/request-to-pay", {})
    expect(b.status).toBe(502)
    expect(b.data).toEqual({ error: "Bad Gateway", status: 502 })
    const c = await api.post("/request-to-pay", {})
    expect(c.status).toBe(500)
    expect(typeof c.data).toBe("string")
  })

  it("error: the refused call has no effect unless commit is set", async () => {
    const api = await h.api()
    const body = linkBody()
    h.sandbox.fault({ endpoint: "link", mode: "error" })
    await api.post("", body)
    expect(h.sandbox.order(body.order_id as string)).toBeUndefined()
    h.sandbox.fault({ endpoint: "link", mode: "error", commit: true })
    await api.post("", body)
    expect(h.sandbox.order(body.order_id as string)).toBeDefined()
  })

  it("timeout: never answers; the client gives up; with commit the link exists anyway", async () => {
    const api = await h.api()
    const body = linkBody()
    h.sandbox.fault({ endpoint: "link", mode: "timeout", commit: true })
    const err = await api.post("", body, { timeout: 200 }).catch((e: unknown) => e)
    expect(axios.isAxiosError(err)).toBe(true)
    expect((err as { code?: string }).code).toBe("ECONNABORTED")
    expect(lastRecord("link")).toMatchObject({ fault: "timeout", status: null })
    // The merchant repeats the same order id: the first call did take effect.
    const again = await api.post("", body)
    expect(again.data).toEqual({ error: "Order ID must be unique" })
  })

  it("garbage: 200 with a body that is not JSON", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "shopper", mode: "garbage" })
    const res = await api.get("/shopper", { params: { mobile_number: "97451118021", email: "x@y.z" } })
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toMatch(/text\/html/)
    expect(res.data).toBe("<html>oops</html>")
  })

  it("token endpoint faults, with count", async () => {
    h.sandbox.fault({ endpoint: "token", mode: "error", status: 503, count: 2 })
    const form = "grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret"
    const headers = { "content-type": "application/x-www-form-urlencoded" }
    expect((await h.http.post(TOKEN_PATH, form, { headers })).status).toBe(503)
    expect((await h.http.post(TOKEN_PATH, form, { headers })).status).toBe(503)
    expect((await h.http.post(TOKEN_PATH, form, { headers })).status).toBe(200)
  })

  it("'*' hits whichever endpoint is called next; faults queue in order", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "*", mode: "garbage" })
    h.sandbox.fault({ endpoint: "refund", mode: "error" })
    expect((await api.post("/refund", { order_id: "x" })).data).toBe("<html>oops</html>")
    expect((await api.post("/refund", { order_id: "x" })).status).toBe(500)
    expect((await api.post("/refund", { order_id: "x" })).data).toEqual({ error: "Refund Error", message: "Invalid transaction reference" })
  })

  it("faults come before authentication, as an outage would", async () => {
    h.sandbox.fault({ endpoint: "status", mode: "error" })
    const res = await h.http.get("/api/paylater/merchant-portal/v2/web-checkout/status?order_id=x")
    expect(res.status).toBe(500)
  })

  it("pages and the control API are never faulted", async () => {
    const api = await h.api()
    const body = linkBody()
    const created = await api.post("", body)
    h.sandbox.fault({ endpoint: "*", mode: "error" })
    expect((await h.http.get(created.data.paymentLinkUrl)).status).toBe(200)
    expect((await h.http.get("/__sandbox/clock")).status).toBe(200)
    expect(h.sandbox.listFaults().faults).toHaveLength(1)
  })

  it("refuses malformed faults and webhook targets from code too", () => {
    expect(() => h.sandbox.fault({ endpoint: "everything", mode: "error" } as never)).toThrow()
    expect(() => h.sandbox.fault({ endpoint: "link", mode: "error", count: 0 })).toThrow()
    expect(() => h.sandbox.webhookFault({ mode: "lose" } as never)).toThrow()
    expect(() => h.sandbox.setWebhookUrl("ftp://example.test/hook")).toThrow(/http/)
    expect(() => h.sandbox.setWebhookUrl("nonsense")).toThrow()
    expect(h.sandbox.listFaults()).toEqual({ faults: [], webhookFaults: [] })
  })

  it("clearFaults() disarms everything", async () => {
    const api = await h.api()
    h.sandbox.fault({ endpoint: "*", mode: "error", count: 10 })
    h.sandbox.clearFaults()
    expect((await api.get("/status", { params: { order_id: "x" } })).status).toBe(200)
  })
})

import { verifyWebhook } from "../../lib/paylater/webhook"
import { MINUTE, client, harness, linkBody, rtpBody, startReceiver, type Harness, type Receiver } from "./helpers"

describe("sandbox: control API over HTTP", () => {
  let h: Harness
  let receiver: Receiver
  let ctl: ReturnType<typeof client>

  beforeAll(async () => {
    receiver = await startReceiver()
    h = await harness({ sweepIntervalMs: 3_600_000 })
    ctl = client(`${h.sandbox.url}/__sandbox`)
  })
  afterAll(async () => {
    await h.sandbox.stop()
    await receiver.close()
  })
  beforeEach(async () => {
    expect((await ctl.post("/reset")).data).toEqual({ ok: true })
    h.sandbox.setWebhookUrl(null)
    receiver.received.length = 0
  })

  it("clock: read, set (epoch or ISO), advance", async () => {
    const read = await ctl.get("/clock")
    expect(read.data).toEqual({ now: expect.any(Number), iso: expect.any(String), offsetMs: expect.any(Number) })
    const set = await ctl.post("/clock", { now: Date.UTC(2031, 5, 1) })
    expect(set.data.iso).toMatch(/^2031-06-01T00:00:0/)
    const iso = await ctl.post("/clock", { now: "2032-01-01T00:00:00Z" })
    expect(iso.data.iso).toMatch(/^2032-01-01T00:00:0/)
    const advanced = await ctl.post("/clock", { advanceMs: 10 * MINUTE })
    expect(advanced.data.iso).toMatch(/^2032-01-01T00:10:0/)
    expect((await ctl.post("/clock", { later: 1 })).status).toBe(400)
    await ctl.post("/reset")
    expect(Math.abs((await ctl.get("/clock")).data.offsetMs)).toBeLessThan(60_000)
  })

  it("faults: arm one or many, list, clear", async () => {
    const one = await ctl.post("/faults", { endpoint: "status", mode: "error", status: 502 })
    expect(one.data.faults).toEqual([{ endpoint: "status", mode: "error", status: 502, remaining: 1 }])
    await ctl.post("/faults", [
      { endpoint: "link", mode: "slow", delayMs: 10 },
      { endpoint: "*", mode: "garbage", count: 3 },
    ])
    const wh = await ctl.post("/webhook-faults", { mode: "drop", count: 2 })
    expect(wh.data.webhookFaults).toEqual([{ mode: "drop", count: 2, remaining: 2 }])
    expect((await ctl.get("/faults")).data.faults).toHaveLength(3)
    const api = await h.api()
    expect((await api.get("/status", { params: { order_id: "x" } })).status).toBe(502)
    expect((await ctl.delete("/faults")).data).toEqual({ ok: true })
    expect((await ctl.get("/faults")).data).toEqual({ faults: [], webhookFaults: [] })
  })

  it("faults: refuses nonsense with 400", async () => {
    expect((await ctl.post("/faults", { endpoint: "everything", mode: "error" })).status).toBe(400)
    expect((await ctl.post("/faults", { endpoint: "link", mode: "explode" })).status).toBe(400)
    expect((await ctl.post("/webhook-faults", { mode: "lose" })).status).toBe(400)
    expect((await ctl.post("/faults", "{not json", { headers: { "content-type": "application/json" } })).status).toBe(400)
  })

  it("webhook-url and webhooks/send", async () => {
    const set = await ctl.post("/webhook-url", { url: receiver.url })
    expect(set.data).toEqual({ webhookUrl: receiver.url })
    const sent = await ctl.post("/webhooks/send", { orderId: "ORD-1", status: "failed", comments: "card declined" })
    expect(sent.status).toBe(200)
    expect(sent.data).toMatchObject({ orderId: "ORD-1", status: "failed", outcome: "delivered", manual: true })
    expect(verifyWebhook(receiver.received[0].body, "sandbox-webhook-secret").ok).toBe(true)
    const forged = await ctl.post("/webhooks/send", { orderId: "ORD-1", status: "success", forged: true })
    expect(verifyWebhook(forged.data.body, "sandbox-webhook-secret").ok).toBe(false)
    expect((await ctl.post("/webhook-url", { url: null })).data).toEqual({ webhookUrl: null })
    expect((await ctl.post("/webhook-url", { url: "not a url" })).status).toBe(400)
  })

  it("links: open, approve, decline, abandon; orders and requests", async () => {
    const api = await h.api()
    const a = linkBody()
    const b = linkBody()
    const c = linkBody()
    for (const body of [a, b, c]) await api.post("", body)

    expect((await ctl.post(`/links/${a.order_id}/open`)).data.status).toBe(1)
    expect((await ctl.post(`/links/${a.order_id}/approve`)).data.status).toBe(2)
    const again = await ctl.post(`/links/${a.order_id}/approve`)
    expect(again.status).toBe(409)
    expect(again.data).toMatchObject({ code: "already_used" })

    const soft = await ctl.post(`/links/${b.order_id}/decline`, { final: false })
    expect(soft.data).toMatchObject({ status: 1, link: { cardDeclines: 1 } })
    expect((await ctl.post(`/links/${b.order_id}/decline`)).data.status).toBe(3)
    expect((await ctl.post(`/links/${c.order_id}/abandon`)).data.status).toBe(1)
    expect((await ctl.post(`/links/missing/approve`)).status).toBe(404)
    expect((await ctl.post(`/links/${c.order_id}/dance`)).status).toBe(404)

    const orders = await ctl.get("/orders")
    expect(orders.data.map((o: { orderId: string }) => o.orderId)).toEqual([a.order_id, b.order_id, c.order_id])
    expect((await ctl.get(`/orders/${a.order_id}`)).data).toMatchObject({ orderId: a.order_id, status: 2 })
    expect((await ctl.get("/orders/nope")).status).toBe(404)

    const requests = await ctl.get("/requests")
    expect(requests.data.filter((r: { endpoint: string }) => r.endpoint === "link")).toHaveLength(3)
    expect(JSON.stringify(requests.data)).not.toMatch(/authorization|Bearer/i)
  })

  it("expired links answer 410 on the control API", async () => {
    const api = await h.api()
    const a = linkBody({ expiry_duration: 1 })
    await api.post("", a)
    await ctl.post("/clock", { advanceMs: MINUTE })
    const res = await ctl.post(`/links/${a.order_id}/approve`)
    expect(res.status).toBe(410)
    expect(res.data.code).toBe("expired")
  })

  it("rtp: approve and decline; deliveries", async () => {
    await ctl.post("/webhook-url", { url: receiver.url })
    const api = await h.api()
    const a = rtpBody()
    const b = rtpBody()
    await api.post("/request-to-pay", a)
    await api.post("/request-to-pay", b)
    expect((await ctl.post(`/rtp/${a.merchant_order_reference}/approve`)).data.status).toBe(2)
    expect((await ctl.post(`/rtp/${b.merchant_order_reference}/decline`)).data.status).toBe(3)
    expect((await ctl.post(`/rtp/${b.merchant_order_reference}/approve`)).status).toBe(409)
    await h.sandbox.waitForDeliveries((d) => d.length === 4)
    const deliveries = await ctl.get("/deliveries")
    expect(deliveries.data.map((d: { status: string }) => d.status).sort()).toEqual(["failed", "pending", "pending", "success"])
  })

  it("unknown control routes → 404", async () => {
    expect((await ctl.get("/nothing")).status).toBe(404)
    expect((await ctl.put("/reset")).status).toBe(404)
  })
})

import type { AxiosInstance } from "axios"
import { verifyWebhook } from "../../lib/paylater/webhook"
import {
  MINUTE,
  OUTLET,
  harness,
  linkBody,
  linkParts,
  shiftClockQuietly,
  startReceiver,
  type Harness,
  type Receiver,
} from "./helpers"

const FORM = { headers: { "content-type": "application/x-www-form-urlencoded" } }

describe("sandbox: Generate Payment Link and the hosted page", () => {
  let h: Harness
  let api: AxiosInstance
  let receiver: Receiver

  beforeAll(async () => {
    receiver = await startReceiver()
    h = await harness({
      webhookUrl: receiver.url,
      outlets: [{ id: OUTLET }, { id: 2000000001, minAmount: "300", maxAmount: "4000" }, { id: 3, minAmount: "300.50", maxAmount: "999.99" }],
      webhookRetry: { attempts: 1, baseDelayMs: 1, timeoutMs: 2000 },
      // Long enough that only the tests that want the sweep see it.
      sweepIntervalMs: 3_600_000,
    })
  })
  afterAll(async () => {
    await h.sandbox.stop()
    await receiver.close()
  })
  beforeEach(async () => {
    h.sandbox.reset()
    receiver.received.length = 0
    api = await h.api()
  })

  async function createLink(overrides: Record<string, unknown> = {}) {
    const body = linkBody(overrides)
    const res = await api.post("", body)
    expect(res.status).toBe(200)
    return { orderId: body.order_id as string, url: res.data.paymentLinkUrl as string }
  }

  describe("validation", () => {
    it.each([
      ["missing outlet", { outlet_id: undefined }, "Merchant ID cannot be null"],
      ["null outlet", { outlet_id: null }, "Merchant ID cannot be null"],
      ["unknown outlet", { outlet_id: 42 }, "Merchant ID cannot be null"],
      ["missing order_id", { order_id: undefined }, "Order ID is required"],
      ["empty order_id", { order_id: "  " }, "Order ID is required"],
      ["missing currency", { currency: undefined }, "Currency is required"],
      ["currency not QAR", { currency: "USD" }, "Currency must be QAR"],
      ["lower-case qar", { currency: "qar" }, "Currency must be QAR"],
      ["missing amount", { amount: undefined }, "Amount is required"],
      ["three decimals", { amount: 350.123 }, "Amount must have at most two decimal places"],
      ["non-numeric amount", { amount: "lots" }, "Amount must be a number"],
      ["amount below range", { amount: 299.99 }, "Amount must be between 300 and 25000"],
      ["amount above range", { amount: 25000.01 }, "Amount must be between 300 and 25000"],
      ["negative amount", { amount: -500 }, "Amount must be between 300 and 25000"],
      ["narrow outlet", { outlet_id: 2000000001, amount: 4000.01 }, "Amount must be between 300 and 4000"],
      ["fractional bounds", { outlet_id: 3, amount: 300 }, "Amount must be between 300.50 and 999.99"],
      ["missing expiry", { expiry_duration: undefined }, "Expiry duration is required"],
      ["expiry 0", { expiry_duration: 0 }, "Expiry duration must be an integer between 1 and 1440 minutes"],
      ["expiry 1441", { expiry_duration: 1441 }, "Expiry duration must be an integer between 1 and 1440 minutes"],
      ["fractional expiry", { expiry_duration: 1.5 }, "Expiry duration must be an integer between 1 and 1440 minutes"],
      ["missing success url", { success_redirect_url: undefined }, "Success redirect URL is required"],
      ["bad success url", { success_redirect_url: "not a url" }, "Success redirect URL is invalid"],
      ["missing fail url", { fail_redirect_url: undefined }, "Fail redirect URL is required"],
      ["javascript fail url", { fail_redirect_url: "javascript:alert(1)" }, "Fail redirect URL is invalid"],
    ])("%s → 400 {error}", async (_name, overrides, message) => {
      const res = await api.post("", linkBody(overrides))
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: message })
    })

    it("accepts the bounds themselves and numeric strings", async () => {
      expect((await api.post("", linkBody({ amount: 300 }))).status).toBe(200)
      expect((await api.post("", linkBody({ amount: 25000 }))).status).toBe(200)
      expect((await api.post("", linkBody({ amount: "350.50", outlet_id: String(OUTLET) }))).status).toBe(200)
      expect((await api.post("", linkBody({ expiry_duration: 1 }))).status).toBe(200)
      expect((await api.post("", linkBody({ expiry_duration: 1440 }))).status).toBe(200)
    })

    it("refuses an order_id already used by this merchant", async () => {
      const { orderId } = await createLink()
      const res = await api.post("", linkBody({ order_id: orderId }))
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: "Order ID must be unique" })
    })

    it("refuses a body that is not a JSON object", async () => {
      const res = await api.post("", "[1,2]", { headers: { "content-type": "application/json" } })
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: "Malformed JSON request" })
    })
  })

  it("answers paymentLinkUrl on publicUrl with token and channel=web", async () => {
    const { orderId, url } = await createLink({ amount: 1000.5 })
    expect(url).toMatch(
      new RegExp(`^${h.sandbox.url}/paylink/[0-9a-f-]{36}\\?token=[A-Za-z0-9_-]+&channel=web$`)
    )
    expect(h.sandbox.order(orderId)).toMatchObject({ kind: "link", status: 0, amount: "1000.50", currency: "QAR" })
    const status = await api.get("/status", { params: { order_id: orderId } })
    expect(status.data).toEqual({ message: "Order not initiated", status: 0 })
  })

  it("builds links on the configured publicUrl", async () => {
    const other = await harness({ publicUrl: "https://pay.example.test/" })
    try {
      const c = await other.api()
      const res = await c.post("", linkBody())
      expect(res.data.paymentLinkUrl).toMatch(/^https:\/\/pay\.example\.test\/paylink\//)
    } finally {
      await other.sandbox.stop()
    }
  })

  it("the page shows merchant, amount, order, a 4-part plan and the three buttons; opening sends pending", async () => {
    const { orderId, url } = await createLink({ amount: 1000.5 })
    const page = await h.http.get(url)
    expect(page.status).toBe(200)
    expect(page.headers["content-type"]).toMatch(/text\/html/)
    const body = page.data as string
    expect(body).toContain("sandbox-merchant")
    expect(body).toContain("QAR 1,000.50")
    expect(body).toContain(orderId)
    // 100050 dirhams in 4: 250.14 today (carries the remainder) + 3 × 250.12
    expect(body.match(/QAR 250\.12/g)).toHaveLength(3)
    expect(body).toContain("QAR 250.14")
    expect(body).toMatch(/<button id="approve"[^>]*>Pay with PayLater<\/button>/)
    expect(body).toMatch(/<button id="decline"[^>]*>Decline<\/button>/)
    expect(body).toMatch(/<button id="abandon"[^>]*>Cancel and return to store<\/button>/)
    expect(body).toContain("97451118021")
    expect(body).not.toMatch(/<script|<link |https?:\/\/(?!127\.0\.0\.1)[a-z]/i)

    expect(h.sandbox.order(orderId)?.status).toBe(1)
    const deliveries = await h.sandbox.waitForDeliveries((d) => d.length === 1)
    expect(deliveries[0]).toMatchObject({ orderId, status: "pending", attempt: 1, outcome: "delivered", responseStatus: 200 })
    const verified = verifyWebhook(receiver.received[0].body, "sandbox-webhook-secret")
    expect(verified).toMatchObject({ ok: true, webhook: { orderId, status: "pending", merchantId: "sandbox-merchant" } })

    // Reloading while pending neither fails nor notifies again.
    expect((await h.http.get(url)).status).toBe(200)
    const status = await api.get("/status", { params: { order_id: orderId } })
    expect(status.data).toEqual({
      payLaterOrderId: expect.stringMatching(/^PL\d{16}$/),
      message: "pending",
      merchantReference: orderId,
      status: 1,
    })
    expect(h.sandbox.deliveries()).toHaveLength(1)
  })

  it.each([
    ["wrong token", (q: string) => q.replace(/token=[^&]+/, "token=nope")],
    ["no token", (q: string) => q.replace(/token=[^&]+&?/, "")],
    ["no channel", (q: string) => q.replace(/&channel=web/, "")],
  ])("%s → 403 page and no state change", async (_name, mutate) => {
    const { orderId, url } = await createLink()
    const { path, query } = linkParts(url)
    const res = await h.http.get(`${path}${mutate(query)}`)
    expect(res.status).toBe(403)
    expect(res.data).toContain("Invalid payment link")
    expect(h.sandbox.order(orderId)?.status).toBe(0)
  })

  it("unknown link → 404 page", async () => {
    const res = await h.http.get("/paylink/00000000-0000-0000-0000-000000000000?token=x&channel=web")
    expect(res.status).toBe(404)
  })

  it("approve: success, webhook, 303 to success_redirect_url, then single use", async () => {
    const { orderId, url } = await createLink({ success_redirect_url: "http://shop.test/ok?cart=1" })
    const { path, query } = linkParts(url)
    await h.http.get(url)
    const res = await h.http.post(`${path}/decision${query}`, "decision=approve", FORM)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe("http://shop.test/ok?cart=1")
    expect(h.sandbox.order(orderId)).toMatchObject({ status: 2, paidAt: expect.any(Number) })
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(d.map((x) => x.status)).toEqual(["pending", "success"])

    const again = await h.http.get(url)
    expect(again.status).toBe(410)
    expect(again.data).toContain("This payment link has already been used")
    // Not a dead end: the way back is the attempt's own success URL (issue 34).
    expect(again.data).toContain('<a id="back-to-store" class="primary" href="http://shop.test/ok?cart=1">Back to the store to see your order</a>')
    const decideAgain = await h.http.post(`${path}/decision${query}`, "decision=decline", FORM)
    expect(decideAgain.status).toBe(410)
    expect(h.sandbox.order(orderId)?.status).toBe(2)
  })

  it("decline: failed 'declined by shopper', webhook, 303 to fail_redirect_url, then single use", async () => {
    const { orderId, url } = await createLink()
    const { path, query } = linkParts(url)
    await h.http.get(url)
    const res = await h.http.post(`${path}/decision${query}`, "decision=decline", FORM)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe("http://shop.test/fail")
    expect(h.sandbox.order(orderId)).toMatchObject({ status: 3, reason: "declined by shopper" })
    await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(receiver.received[1].body).toMatchObject({ status: "failed", comments: "declined by shopper" })
    const status = await api.get("/status", { params: { order_id: orderId } })
    expect(status.data).toMatchObject({ status: 3, message: "failed" })
    const again = await h.http.get(url)
    expect(again.status).toBe(410)
    expect(again.data).toContain('<a id="back-to-store" class="primary" href="http://shop.test/fail">Back to the store</a>')
  })

  it("abandon: 303 to fail_redirect_url, stays pending, link still usable until it expires", async () => {
    const { orderId, url } = await createLink({ expiry_duration: 10 })
    const { path, query } = linkParts(url)
    await h.http.get(url)
    const res = await h.http.post(`${path}/decision${query}`, "decision=abandon", FORM)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe("http://shop.test/fail")
    expect(h.sandbox.order(orderId)?.status).toBe(1)
    expect((await h.http.get(url)).status).toBe(200)
    await h.sandbox.waitForDeliveries((x) => x.length === 1)

    h.sandbox.advanceClock(10 * MINUTE)
    const expired = await h.http.get(url)
    expect(expired.status).toBe(410)
    expect(expired.data).toContain("expired")
    expect(expired.data).toContain('id="back-to-store" class="primary" href="http://shop.test/fail"')
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(d[1]).toMatchObject({ status: "failed", body: expect.objectContaining({ comments: "Payment link expired" }) })
  })

  it("a decision posted without opening the page first still sends pending, then the outcome", async () => {
    const { orderId, url } = await createLink()
    const { path, query } = linkParts(url)
    expect((await h.http.post(`${path}/decision${query}`, "decision=approve", FORM)).status).toBe(303)
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(d.map((x) => x.status)).toEqual(["pending", "success"])
    expect(h.sandbox.order(orderId)?.status).toBe(2)
  })

  it("a decision with a wrong token is refused", async () => {
    const { orderId, url } = await createLink()
    const { path } = linkParts(url)
    const res = await h.http.post(`${path}/decision?token=nope&channel=web`, "decision=approve", FORM)
    expect(res.status).toBe(403)
    expect(h.sandbox.order(orderId)?.status).toBe(0)
  })

  describe("expiry on the virtual clock", () => {
    it("lazily, on page access: 410 expired page, status 3, failed webhook", async () => {
      const { orderId, url } = await createLink({ expiry_duration: 5 })
      // Margins of 30 s because the virtual clock keeps running with real time.
      shiftClockQuietly(h.sandbox, 5 * MINUTE - 30_000)
      // still open shortly before
      expect((await h.http.get(url)).status).toBe(200)
      await h.sandbox.waitForDeliveries((x) => x.length === 1)
      shiftClockQuietly(h.sandbox, 30_000)
      expect(h.sandbox.requests().filter((r) => r.endpoint === "page")).toHaveLength(1)
      const res = await h.http.get(url)
      expect(res.status).toBe(410)
      expect(res.data).toContain("This payment link has expired")
      expect(h.sandbox.order(orderId)).toMatchObject({ status: 3, reason: "Payment link expired" })
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
      expect(d[1]).toMatchObject({ status: "failed", body: expect.objectContaining({ comments: "Payment link expired" }) })
      // The 5-minute token ran out too; a fresh one sees the same answer.
      const status = await (await h.api()).get("/status", { params: { order_id: orderId } })
      expect(status.data).toMatchObject({ status: 3, message: "failed" })
    })

    it("lazily, on a status call for a link never opened", async () => {
      const { orderId } = await createLink({ expiry_duration: 1 })
      shiftClockQuietly(h.sandbox, MINUTE)
      expect(h.sandbox.deliveries()).toHaveLength(0)
      const status = await api.get("/status", { params: { order_id: orderId } })
      expect(status.data).toMatchObject({ status: 3, message: "failed", merchantReference: orderId })
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 1)
      expect(d[0]).toMatchObject({ orderId, status: "failed" })
    })

    it("by the periodic sweep, without anyone asking", async () => {
      const fast = await harness({ webhookUrl: receiver.url, sweepIntervalMs: 20 })
      try {
        const c = await fast.api()
        const body = linkBody({ expiry_duration: 1 })
        await c.post("", body)
        // Only the timer can notice: nobody asks and the clock moved without a sweep.
        shiftClockQuietly(fast.sandbox, MINUTE)
        const d = await fast.sandbox.waitForDeliveries((x) => x.length === 1)
        expect(d[0]).toMatchObject({ orderId: body.order_id, status: "failed", body: expect.objectContaining({ comments: "Payment link expired" }) })
      } finally {
        await fast.sandbox.stop()
      }
    })
  })

  describe("shopper actions from code", () => {
    it("openLink / approveLink mirror the page", async () => {
      const { orderId, url } = await createLink()
      h.sandbox.openLink(orderId)
      expect(h.sandbox.order(orderId)?.status).toBe(1)
      await h.sandbox.approveLink(orderId)
      expect(h.sandbox.order(orderId)?.status).toBe(2)
      expect((await h.http.get(url)).status).toBe(410)
      await expect(h.sandbox.approveLink(orderId)).rejects.toMatchObject({ code: "already_used" })
    })

    it("declineLink({final:false}) is a declined card: stays pending, can still pay", async () => {
      const { orderId } = await createLink()
      await h.sandbox.declineLink(orderId, { final: false })
      expect(h.sandbox.order(orderId)).toMatchObject({ status: 1, link: { cardDeclines: 1 } })
      await h.sandbox.approveLink(orderId)
      expect(h.sandbox.order(orderId)?.status).toBe(2)
    })

    it("declineLink() fails the order; abandonLink keeps it pending", async () => {
      const a = await createLink()
      await h.sandbox.declineLink(a.orderId)
      expect(h.sandbox.order(a.orderId)).toMatchObject({ status: 3, reason: "declined by shopper" })
      const b = await createLink()
      h.sandbox.abandonLink(b.orderId)
      expect(h.sandbox.order(b.orderId)).toMatchObject({ status: 1, link: { abandonedAt: expect.any(Number) } })
    })

    it("actions on unknown, expired or RTP orders throw typed errors", async () => {
      await expect(h.sandbox.approveLink("nope")).rejects.toMatchObject({ code: "not_found" })
      const rtp = await api.post("/request-to-pay", {
        outlet_id: OUTLET,
        mobile_number: "97451118021",
        order_amount: 500,
        merchant_order_reference: "rtp-kind",
        expiry_minutes: 5,
      })
      expect(rtp.status).toBe(200)
      await expect(h.sandbox.approveLink("rtp-kind")).rejects.toMatchObject({ code: "wrong_kind" })
      const { orderId } = await createLink({ expiry_duration: 1 })
      h.sandbox.advanceClock(MINUTE)
      await expect(h.sandbox.approveLink(orderId)).rejects.toMatchObject({ code: "expired" })
    })
  })
})

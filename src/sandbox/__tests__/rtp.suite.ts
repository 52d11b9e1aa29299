import type { AxiosInstance } from "axios"
import { verifyWebhook } from "../../lib/paylater/webhook"
import { MINUTE, OUTLET, SHOPPER, harness, linkBody, rtpBody, shiftClockQuietly, startReceiver, type Harness, type Receiver } from "./helpers"

const EXPIRY_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/

describe("sandbox: Request to Pay and the shopper app", () => {
  let h: Harness
  let api: AxiosInstance
  let receiver: Receiver

  beforeAll(async () => {
    receiver = await startReceiver()
    h = await harness({ webhookUrl: receiver.url, sweepIntervalMs: 3_600_000 })
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

  it("200: reference, SUCCESS, expiry_date as UTC wall time with nine fractional digits and no zone", async () => {
    const now = Date.UTC(2026, 3, 28, 10, 0, 41, 477)
    h.sandbox.setClock(now)
    api = await h.api()
    const body = rtpBody({ expiry_minutes: 15, order_amount: 450.5 })
    const res = await api.post("/request-to-pay", body)
    expect(res.status).toBe(200)
    expect(res.data).toEqual({
      merchant_order_reference: body.merchant_order_reference,
      status: "SUCCESS",
      expiry_date: expect.stringMatching(EXPIRY_DATE),
    })
    // The clock ran on for a few ms since setClock; the minute and the zone-less shape are what matter.
    expect(res.data.expiry_date).toMatch(/^2026-04-28T10:15:4\d\.\d{9}$/)
    expect(h.sandbox.order(body.merchant_order_reference as string)).toMatchObject({
      kind: "rtp",
      status: 1,
      amount: "450.50",
      rtp: { mobileNumber: SHOPPER, expiryDate: res.data.expiry_date },
    })
  })

  it("starts pending: status 1 and a signed pending webhook", async () => {
    const body = rtpBody()
    await api.post("/request-to-pay", body)
    const status = await api.get("/status", { params: { order_id: body.merchant_order_reference } })
    expect(status.data).toEqual({
      payLaterOrderId: expect.stringMatching(/^PL\d{16}$/),
      message: "pending",
      merchantReference: body.merchant_order_reference,
      status: 1,
    })
    await h.sandbox.waitForDeliveries((d) => d.length === 1)
    const v = verifyWebhook(receiver.received[0].body, "sandbox-webhook-secret")
    expect(v).toMatchObject({ ok: true, webhook: { orderId: body.merchant_order_reference, status: "pending" } })
  })

  describe("validation → 400 FAILED RTP-400-VALIDATION", () => {
    it.each([
      ["missing outlet", { outlet_id: undefined }],
      ["unknown outlet", { outlet_id: 7 }],
      ["missing mobile", { mobile_number: undefined }],
      ["mobile with plus", { mobile_number: "+97451118021" }],
      ["mobile without country code", { mobile_number: "51118021" }],
      ["mobile as number", { mobile_number: 97451118021 }],
      ["mobile too long", { mobile_number: "974511180211" }],
      ["zero amount", { order_amount: 0 }],
      ["negative amount", { order_amount: -5 }],
      ["three decimals", { order_amount: 10.005 }],
      ["missing amount", { order_amount: undefined }],
      ["missing reference", { merchant_order_reference: undefined }],
      ["empty reference", { merchant_order_reference: "" }],
      ["missing expiry", { expiry_minutes: undefined }],
      ["expiry 0", { expiry_minutes: 0 }],
      ["expiry 1441", { expiry_minutes: 1441 }],
      ["fractional expiry", { expiry_minutes: 2.5 }],
    ])("%s", async (_name, overrides) => {
      const res = await api.post("/request-to-pay", rtpBody(overrides))
      expect(res.status).toBe(400)
      expect(res.data).toEqual({
        status: "FAILED",
        message: expect.any(String),
        http_code: 400,
        error_reference: "RTP-400-VALIDATION",
      })
    })
  })

  it("409 for a reference that already has a Request to Pay", async () => {
    const body = rtpBody()
    expect((await api.post("/request-to-pay", body)).status).toBe(200)
    const res = await api.post("/request-to-pay", body)
    expect(res.status).toBe(409)
    expect(res.data).toEqual({
      status: "FAILED",
      message: "A Request-to-Pay already exists for this merchant order reference",
      http_code: 409,
      error_reference: "RTP-409-DUPLICATE-REFERENCE",
    })
  })

  it("409 when the reference is already a payment link order id (one namespace for status)", async () => {
    const link = linkBody()
    await api.post("", link)
    const res = await api.post("/request-to-pay", rtpBody({ merchant_order_reference: link.order_id }))
    expect(res.status).toBe(409)
  })

  it("404 RTP-UPSTREAM-ERROR for a mobile with no PayLater account; the reference stays free", async () => {
    const body = rtpBody({ mobile_number: "97430000000" })
    const res = await api.post("/request-to-pay", body)
    expect(res.status).toBe(404)
    expect(res.data).toEqual({
      status: "FAILED",
      message: "Unable to process the Request-to-Pay now; try again later",
      http_code: 404,
      error_reference: "RTP-UPSTREAM-ERROR",
    })
    expect((await api.post("/request-to-pay", { ...body, mobile_number: SHOPPER })).status).toBe(200)
  })

  it("approveRequest → success + webhook; declineRequest → failed + webhook", async () => {
    const a = rtpBody()
    const b = rtpBody()
    await api.post("/request-to-pay", a)
    await api.post("/request-to-pay", b)
    await h.sandbox.approveRequest(a.merchant_order_reference as string)
    await h.sandbox.declineRequest(b.merchant_order_reference as string)
    expect(h.sandbox.order(a.merchant_order_reference as string)).toMatchObject({ status: 2, paidAt: expect.any(Number) })
    expect(h.sandbox.order(b.merchant_order_reference as string)).toMatchObject({ status: 3, reason: "declined by shopper" })
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 4)
    const byOrder = (ref: unknown) => d.filter((x) => x.orderId === ref).map((x) => x.status)
    expect(byOrder(a.merchant_order_reference)).toEqual(["pending", "success"])
    expect(byOrder(b.merchant_order_reference)).toEqual(["pending", "failed"])
    for (const r of receiver.received) expect(verifyWebhook(r.body, "sandbox-webhook-secret").ok).toBe(true)
    await expect(h.sandbox.approveRequest(a.merchant_order_reference as string)).rejects.toMatchObject({ code: "already_used" })
  })

  it("expiry: status 3 and a failed webhook 'Request to Pay expired', lazily or by clock moves", async () => {
    const lazy = rtpBody({ expiry_minutes: 2 })
    await api.post("/request-to-pay", lazy)
    shiftClockQuietly(h.sandbox, 2 * MINUTE)
    api = await h.api()
    const status = await api.get("/status", { params: { order_id: lazy.merchant_order_reference } })
    expect(status.data).toMatchObject({ status: 3, message: "failed" })

    const swept = rtpBody({ expiry_minutes: 1 })
    await api.post("/request-to-pay", swept)
    h.sandbox.advanceClock(MINUTE)
    const d = await h.sandbox.waitForDeliveries((x) => x.filter((y) => y.status === "failed").length === 2)
    const failed = d.filter((x) => x.status === "failed")
    expect(failed.map((x) => x.body.comments)).toEqual(["Request to Pay expired", "Request to Pay expired"])
    await expect(h.sandbox.approveRequest(swept.merchant_order_reference as string)).rejects.toMatchObject({ code: "expired" })
  })

  describe("shopper app page", () => {
    it("lists the shopper's pending requests with approve/decline buttons", async () => {
      const mine = rtpBody()
      const other = rtpBody({ mobile_number: "97451118022" })
      await api.post("/request-to-pay", mine)
      await api.post("/request-to-pay", other)
      const page = await h.http.get("/app", { params: { mobile: SHOPPER } })
      expect(page.status).toBe(200)
      expect(page.data).toContain(`id="approve-${mine.merchant_order_reference}"`)
      expect(page.data).toContain(`id="decline-${mine.merchant_order_reference}"`)
      expect(page.data).toContain("QAR 450.50")
      expect(page.data).not.toContain(String(other.merchant_order_reference))
    })

    it("accepts a number as a person types it", async () => {
      const page = await h.http.get("/app", { params: { mobile: "+974 5111 8021" } })
      expect(page.status).toBe(200)
      expect(page.data).toContain("No payment requests waiting")
    })

    it("unknown shopper → 404 page; no mobile → a form", async () => {
      expect((await h.http.get("/app", { params: { mobile: "97430000000" } })).status).toBe(404)
      const form = await h.http.get("/app")
      expect(form.status).toBe(200)
      expect(form.data).toContain('name="mobile"')
    })

    it("the buttons approve or decline, then redirect back to the list", async () => {
      const a = rtpBody()
      const b = rtpBody()
      await api.post("/request-to-pay", a)
      await api.post("/request-to-pay", b)
      const approve = await h.http.post(`/app/requests/${a.merchant_order_reference}/approve`)
      expect(approve.status).toBe(303)
      expect(approve.headers.location).toMatch(/^\/app\?mobile=97451118021&notice=/)
      const decline = await h.http.post(`/app/requests/${b.merchant_order_reference}/decline`)
      expect(decline.status).toBe(303)
      expect(h.sandbox.order(a.merchant_order_reference as string)?.status).toBe(2)
      expect(h.sandbox.order(b.merchant_order_reference as string)?.status).toBe(3)
      const list = await h.http.get(approve.headers.location as string)
      expect(list.data).toContain("No payment requests waiting")
      // A repeated click is harmless and explains itself.
      const again = await h.http.post(`/app/requests/${a.merchant_order_reference}/approve`)
      expect(again.status).toBe(303)
      const notice = new URL(again.headers.location as string, h.sandbox.url).searchParams.get("notice")
      expect(notice).toContain("already been answered")
    })
  })

  it("accepts the outlet id as a numeric string", async () => {
    expect((await api.post("/request-to-pay", rtpBody({ outlet_id: String(OUTLET) }))).status).toBe(200)
  })
})

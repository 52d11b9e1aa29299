import type { AxiosInstance } from "axios"
import { MINUTE, SHOPPER, harness, linkBody, rtpBody, type Harness } from "./helpers"

const DAY = 24 * 60 * MINUTE

describe("sandbox: status, refund, shopper lookup", () => {
  let h: Harness
  let api: AxiosInstance

  beforeAll(async () => {
    h = await harness({ tokenLifetimeSeconds: 86400 * 60 })
  })
  afterAll(() => h.sandbox.stop())
  beforeEach(async () => {
    h.sandbox.reset()
    api = await h.api()
  })

  async function paidLink(amount = 1000): Promise<string> {
    const body = linkBody({ amount })
    expect((await api.post("", body)).status).toBe(200)
    await h.sandbox.approveLink(body.order_id as string)
    return body.order_id as string
  }

  const refund = (body: Record<string, unknown>) => api.post("/refund", body)
  const status = (orderId: string) => api.get("/status", { params: { order_id: orderId } })

  describe("status", () => {
    it("missing order_id → 400 Order ID is required", async () => {
      const res = await api.get("/status")
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: "Order ID is required" })
    })

    it("unknown order id → status 0 'Order not initiated'", async () => {
      const res = await status("never-created")
      expect(res.status).toBe(200)
      expect(res.data).toEqual({ message: "Order not initiated", status: 0 })
    })

    it("walks 0 → 1 → 2 for a link, with a stable PL id", async () => {
      const body = linkBody()
      await api.post("", body)
      const id = body.order_id as string
      expect((await status(id)).data).toEqual({ message: "Order not initiated", status: 0 })
      h.sandbox.openLink(id)
      const pending = (await status(id)).data
      expect(pending).toEqual({ payLaterOrderId: expect.stringMatching(/^PL\d{16}$/), message: "pending", merchantReference: id, status: 1 })
      await h.sandbox.approveLink(id)
      const paid = (await status(id)).data
      expect(paid).toEqual({ ...pending, message: "success", status: 2 })
    })

    it("answers for Request-to-Pay references too", async () => {
      const body = rtpBody()
      await api.post("/request-to-pay", body)
      await h.sandbox.declineRequest(body.merchant_order_reference as string)
      expect((await status(body.merchant_order_reference as string)).data).toMatchObject({ status: 3, message: "failed" })
    })
  })

  describe("refund", () => {
    it("missing order_id → Transaction Reference is required", async () => {
      const res = await refund({})
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: "Transaction Reference is required" })
    })

    it.each([["unknown"], ["unpaid"]])("%s order → Invalid transaction reference", async (kind) => {
      let id = "nope"
      if (kind === "unpaid") {
        const body = linkBody()
        await api.post("", body)
        id = body.order_id as string
      }
      const res = await refund({ order_id: id })
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error: "Refund Error", message: "Invalid transaction reference" })
    })

    it("less than 10 minutes after the payment → try later; at 10 minutes it is accepted", async () => {
      const id = await paidLink()
      // Margins of 30 s because the virtual clock keeps running with real time.
      h.sandbox.advanceClock(10 * MINUTE - 30_000)
      const early = await refund({ order_id: id })
      expect(early.status).toBe(400)
      expect(early.data).toEqual({
        error: "Refund Error",
        message: "Refund cannot be processed less than 10 minutes after the payment, please try later",
      })
      h.sandbox.advanceClock(30_000)
      const ok = await refund({ order_id: id })
      expect(ok.status).toBe(200)
      expect(ok.data).toEqual({ message: `Refund request accepted for reference Id: ${id}` })
    })

    it("more than 29 days after the payment → refused; just inside 29 days it is accepted", async () => {
      const a = await paidLink()
      const b = await paidLink()
      // The virtual clock keeps running with real time, so aim well inside / just past the edge.
      h.sandbox.setClock((h.sandbox.order(a)?.paidAt as number) + 29 * DAY - 30_000)
      expect((await refund({ order_id: a })).status).toBe(200)
      h.sandbox.setClock((h.sandbox.order(b)?.paidAt as number) + 29 * DAY + 1)
      const late = await refund({ order_id: b })
      expect(late.status).toBe(400)
      expect(late.data).toEqual({
        error: "Refund Error",
        message: "Refund cannot be processed for payments made more than 29 days ago",
      })
    })

    it("partial refunds: two-decimal string, > 0, below the total and within what remains; the remainder as a partial; then nothing", async () => {
      const id = await paidLink(1000)
      h.sandbox.advanceClock(11 * MINUTE)
      for (const bad of [120, "120", "120.5", "-1.00", "abc"]) {
        const res = await refund({ order_id: id, amount: bad })
        expect(res.status).toBe(400)
        expect(res.data).toEqual({ error: "Refund Error", message: expect.stringContaining("two decimals") })
      }
      const zero = await refund({ order_id: id, amount: "0.00" })
      expect(zero.data).toEqual({ error: "Refund Error", message: "Refund amount must be greater than zero" })
      const whole = await refund({ order_id: id, amount: "1000.00" })
      expect(whole.data).toEqual({ error: "Refund Error", message: expect.stringContaining("less than the order total of 1000.00") })

      expect((await refund({ order_id: id, amount: "120.00" })).status).toBe(200)
      expect((await refund({ order_id: id, amount: "380.50" })).status).toBe(200)
      const tooMuch = await refund({ order_id: id, amount: "499.51" })
      expect(tooMuch.data).toEqual({ error: "Refund Error", message: expect.stringContaining("refundable amount of 499.50") })
      expect((await refund({ order_id: id, amount: "499.49" })).status).toBe(200)
      // The rest (0.01) may be refunded as a partial amount equal to what remains.
      expect((await refund({ order_id: id, amount: "0.01" })).status).toBe(200)
      const done = await refund({ order_id: id })
      expect(done.status).toBe(400)
      expect(done.data).toEqual({ error: "Refund Error", message: "This transaction has already been fully refunded" })

      const order = h.sandbox.order(id)
      expect(order?.refunds.map((r) => [r.amount, r.full])).toEqual([
        ["120.00", false],
        ["380.50", false],
        ["499.49", false],
        ["0.01", false],
      ])
      expect(order?.refundedAmount).toBe("1000.00")
      // A refund changes no status and sends no webhook.
      expect(order?.status).toBe(2)
    })

    it("a full refund after a partial one refunds what remains", async () => {
      const id = await paidLink(500)
      h.sandbox.advanceClock(11 * MINUTE)
      expect((await refund({ order_id: id, amount: "100.00" })).status).toBe(200)
      expect((await refund({ order_id: id })).status).toBe(200)
      expect(h.sandbox.order(id)?.refunds.map((r) => [r.amount, r.full])).toEqual([
        ["100.00", false],
        ["400.00", true],
      ])
    })

    it("refunds a paid Request to Pay too", async () => {
      const body = rtpBody()
      await api.post("/request-to-pay", body)
      await h.sandbox.approveRequest(body.merchant_order_reference as string)
      h.sandbox.advanceClock(10 * MINUTE)
      expect((await refund({ order_id: body.merchant_order_reference })).status).toBe(200)
    })
  })

  describe("shopper lookup", () => {
    it("finds a configured shopper by mobile and email", async () => {
      const res = await api.get("/shopper", { params: { mobile_number: SHOPPER, email: "shopper1@sandbox.paylater.test" } })
      expect(res.status).toBe(200)
      expect(res.data).toEqual({
        shopperId: expect.any(String),
        email: "shopper1@sandbox.paylater.test",
        mobileNumber: SHOPPER,
        currentSpendingLimit: "10000.00",
        allowedSpendingLimit: "10000.00",
      })
    })

    it.each([
      ["unknown mobile", { mobile_number: "97430000000", email: "shopper1@sandbox.paylater.test" }],
      ["wrong email", { mobile_number: SHOPPER, email: "someone@else.test" }],
    ])("%s → 404 Shopper not found", async (_name, params) => {
      const res = await api.get("/shopper", { params })
      expect(res.status).toBe(404)
      expect(res.data).toEqual({ message: "Shopper not found" })
    })

    it.each([
      ["no mobile", { email: "a@b.c" }, "Mobile number is required"],
      ["no email", { mobile_number: SHOPPER }, "Email is required"],
    ])("%s → 400 {error}", async (_name, params, error) => {
      const res = await api.get("/shopper", { params })
      expect(res.status).toBe(400)
      expect(res.data).toEqual({ error })
    })

    it("serves configured shoppers", async () => {
      const other = await harness({
        shoppers: [{ mobileNumber: "55512345", email: "X@Y.test", allowedSpendingLimit: "3000", currentSpendingLimit: "1200.5" }],
      })
      try {
        const c = await other.api()
        const res = await c.get("/shopper", { params: { mobile_number: "97455512345", email: "x@y.test" } })
        expect(res.data).toMatchObject({ mobileNumber: "97455512345", allowedSpendingLimit: "3000.00", currentSpendingLimit: "1200.50" })
      } finally {
        await other.sandbox.stop()
      }
    })
  })

  it("unknown API path → 404 JSON; wrong method → 405", async () => {
    expect((await api.get("/nothing")).status).toBe(404)
    const res = await api.get("")
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe("POST")
  })
})

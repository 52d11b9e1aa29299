/**
 * The admin's view of what PayLater did for an order: GET /admin/paylater/orders/:id/activity and
 * POST /admin/paylater/orders/:id/check, over Medusa's real store and admin APIs, a real PostgreSQL
 * and the PayLater sandbox. Webhooks are sent by hand where the order of events matters, so every
 * history asserted here has one possible order.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { signWebhook } from "../../../src/lib/paylater"
import { PAYLATER_LEDGER_MODULE } from "../../../src/modules/paylater-ledger"
import { readOrderActivity } from "../../../src/activity/load-activity"
import type { OrderActivity } from "../../../src/activity/timeline"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { atStoreTime } from "../../helpers/store-clock"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { watchProcessPayment } from "../paylater-link/pipeline"
import { decideOnLink, followToApp, type Decision } from "../paylater-link/shopper"
import { orderWithOutstandingAmount, requestToPayApi } from "../paylater-rtp/point-of-sale"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export function activity({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
  let admin: AdminAuth

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
    // Webhooks are posted by hand unless a test turns them back on.
    paylater().setWebhookUrl(null)
  })

  const keep = { validateStatus: () => true }
  const activityOf = async (orderId: string): Promise<OrderActivity> => {
    const res = await api.get(`/admin/paylater/orders/${orderId}/activity`, { ...admin, ...keep })
    if (res.status !== 200) throw new Error(`activity answered ${res.status}: ${JSON.stringify(res.data)}`)
    return res.data.activity
  }
  const check = (orderId: string) => api.post(`/admin/paylater/orders/${orderId}/check`, {}, { ...admin, ...keep })
  const kinds = (a: OrderActivity) => a.history.map((e) => `${e.kind}${e.status ? `:${e.status}` : ""}`)
  const ledger = (cartId: string) => ledgerForCart(getContainer(), cartId)

  function expectChronological(a: OrderActivity) {
    const times = a.history.map((e) => Date.parse(e.at))
    expect(times.every((t) => Number.isFinite(t))).toBe(true)
    expect(times).toEqual([...times].sort((x, y) => x - y))
  }

  function signed(orderId: string, status: "success" | "failed" | "pending") {
    const { merchantId, webhookSecret } = paylater().options
    return signWebhook({ merchantId, orderId, status, timestamp: Date.now() }, webhookSecret)
  }

  const postWebhook = (body: unknown) =>
    api.post("/paylater/webhooks", body, { ...keep, headers: { "content-type": "application/json" } })

  /** Webhook events are recorded right after the 200: wait for the entry instead of sleeping. */
  const activityWhen = (orderId: string, ok: (a: OrderActivity) => boolean) => eventually(() => activityOf(orderId), ok)

  async function linkSession(cart?: { id: string; pcId: string }) {
    if (cart) {
      const r = await store.createPaymentSession(cart.pcId, PAYLATER_PROVIDER_ID)
      if (!r.ok || !r.data.session) throw new Error(`session: ${JSON.stringify(r)}`)
      return { cartId: cart.id, pcId: cart.pcId, session: r.data.session }
    }
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    return { cartId: started.cart.id, pcId: started.paymentCollection.id, session: started.session.data.session }
  }

  async function shopperDecides(session: { id: string; data: Record<string, unknown> }, decision: Decision) {
    const location = await decideOnLink(String(session.data.payment_link_url), decision)
    return followToApp(api, location)
  }

  /** Link checkout paid through the redirect, then the (hand-posted) webhook. */
  async function paidLinkOrder() {
    const c = await linkSession()
    const back = await shopperDecides(c.session as never, "approve")
    expect(back.status).toBe(303)
    const l = await ledger(c.cartId)
    expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    expect((await postWebhook(signed(c.session.id, "success"))).status).toBe(200)
    const activity = await activityWhen(l.orderId!, (a) => a.history.some((e) => e.kind === "webhook_verified"))
    return { ...c, orderId: l.orderId!, activity }
  }

  describe("payment link", () => {
    it("shows link, capture, redirect and webhook in order, with the reference and the refund window", async () => {
      const { session, orderId, activity, cartId } = await paidLinkOrder()
      expect(kinds(activity)).toEqual(["link_created", "captured:captured", "shopper_returned:success", "webhook_verified:success"])
      expectChronological(activity)
      expect(activity.history[0]).toMatchObject({ title: "Payment link created", session_id: session.id })
      expect(activity.history[2]).toMatchObject({ title: "Shopper redirected back: paid", detail: "through PayLater's success URL" })
      expect(activity.history[3]).toMatchObject({ title: "Webhook received and verified: success", repeat_count: 0 })

      const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
      expect(activity.paylater).toMatchObject({
        session_id: session.id,
        paylater_order_id: session.id,
        reference: paylater().order(session.id)!.payLaterOrderId,
        method: "payment_link",
        state: "paid",
        amount: "360.00",
        captured_amount: "360.00",
        refunded_amount: "0.00",
        paylater_status: "success",
      })
      expect(activity.paylater!.expires_at).toBe((session.data as any).expires_at)

      // The window runs from the capture (the earliest proof of payment here).
      const w = activity.paylater!.refund_window!
      expect(w.paid_at).toBe(new Date(payment.captured_at as Date).toISOString())
      expect(Date.parse(w.opens_at) - Date.parse(w.paid_at)).toBe(10 * MINUTE)
      expect(Date.parse(w.closes_at) - Date.parse(w.paid_at)).toBe(29 * DAY)
      expect(w).toMatchObject({ state: "not_yet_open", refundable_amount: "360.00" })

      const later = await atStoreTime(11 * MINUTE, () => activityOf(orderId))
      expect(later.paylater!.refund_window!.state).toBe("open")
      // 30 days on, an admin token would have expired: read it directly.
      const closed = await atStoreTime(30 * DAY, () => readOrderActivity(getContainer(), orderId))
      expect(closed.paylater!.refund_window!.state).toBe("closed")
      expect(await ledger(cartId)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    })

    it("folds duplicate webhooks and return-page reloads into one entry each, and never records a refused one", async () => {
      const { session, orderId } = await paidLinkOrder()
      for (let i = 0; i < 2; i++) {
        expect((await postWebhook(signed(session.id, "success"))).status).toBe(200)
      }
      await followToApp(api, `http://app/paylater/return/${session.id}?outcome=success`)
      const { merchantId } = paylater().options
      const forged = signWebhook({ merchantId, orderId: session.id, status: "failed", timestamp: Date.now() }, "not-the-secret")
      expect((await postWebhook(forged)).status).toBe(403)
      const tampered = { ...signed(session.id, "pending"), status: "failed" }
      expect((await postWebhook(tampered)).status).toBe(403)

      const activity = await activityWhen(orderId, (a) =>
        a.history.some((e) => e.kind === "webhook_verified" && e.repeat_count === 2)
      )
      expect(kinds(activity)).toEqual(["link_created", "captured:captured", "shopper_returned:success", "webhook_verified:success"])
      const returned = activity.history[2]
      expect(returned.repeat_count).toBe(1)
      expect(Date.parse(returned.last_at!)).toBeGreaterThanOrEqual(Date.parse(returned.at))
      const webhook = activity.history[3]
      expect(webhook.repeat_count).toBe(2)

      // A late, genuine "failed" is history too (it changed nothing): its own entry.
      expect((await postWebhook(signed(session.id, "failed"))).status).toBe(200)
      const withLate = await activityWhen(orderId, (a) => a.history.some((e) => e.status === "failed"))
      expect(kinds(withLate).slice(-1)).toEqual(["webhook_verified:failed"])
      expect(withLate.paylater!.state).toBe("paid")

      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      const rows = await pg.raw(`select kind, status, repeat_count, detail::text as detail from paylater_event order by occurred_at`)
      expect(rows.rows.map((r: any) => `${r.kind}:${r.status}:${r.repeat_count}`)).toEqual([
        "shopper_returned:success:1",
        "webhook_verified:success:2",
        "webhook_verified:failed:0",
      ])
      expect(rows.rows.map((r: any) => r.detail).join(" ")).not.toMatch(/txHash|signature|sandbox-webhook-secret/)
    })

    it("keeps a declined attempt in the history of the order its retry placed", async () => {
      const first = await linkSession()
      const declined = await shopperDecides(first.session as never, "decline")
      expect(declined.location).toMatch(/paylater_error=declined/)
      expect(await ledger(first.cartId)).toMatchObject({ orders: 0, payments: 0 })

      const second = await linkSession({ id: first.cartId, pcId: first.pcId })
      expect(second.session.id).not.toBe(first.session.id)
      const back = await shopperDecides(second.session as never, "approve")
      expect(back.status).toBe(303)
      const l = await ledger(first.cartId)
      expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })

      const activity = await activityOf(l.orderId!)
      expect(kinds(activity)).toEqual([
        "shopper_returned:declined",
        "link_created",
        "captured:captured",
        "shopper_returned:success",
      ])
      expectChronological(activity)
      expect(activity.history[0]).toMatchObject({ session_id: first.session.id, tone: "red", detail: "through PayLater's failure URL" })
      expect(activity.history.slice(1).every((e) => e.session_id === second.session.id)).toBe(true)
      // The card's attempt list: the one holding the order's money first, then the declined one.
      expect(activity.attempts.map((a) => [a.session_id, a.outcome])).toEqual([
        [second.session.id, "holds_order_money"],
        [first.session.id, "declined"],
      ])
      expect(activity.paylater).toMatchObject({ session_id: second.session.id, state: "paid" })
    })

    it("shows refunds with their amounts and what is left to refund", async () => {
      const { session, orderId } = await paidLinkOrder()
      const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
      paylater().advanceClock(11 * MINUTE)
      const refunded = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 100.5 }, { ...admin, ...keep })
      expect(refunded.status).toBe(200)

      const activity = await atStoreTime(11 * MINUTE, () => activityOf(orderId))
      expect(kinds(activity).slice(-1)).toEqual(["refunded:refunded"])
      expect(activity.history.slice(-1)[0]).toMatchObject({ title: "Refunded 100.50 QAR" })
      expect(activity.paylater).toMatchObject({ state: "partially_refunded", refunded_amount: "100.50" })
      expect(activity.paylater!.refund_window).toMatchObject({ state: "open", refundable_amount: "259.50" })
    })
  })

  describe("Request to Pay", () => {
    it("shows the request, the verified webhook and the capture of a storefront checkout", async () => {
      paylater.pointWebhooksAt(api, "/paylater/webhooks")
      const watch = await watchProcessPayment(getContainer())
      try {
        const started = await startCheckout(
          store,
          { regionId: seed.regionId, variantId: seed.variants.standard.id },
          PAYLATER_RTP_PROVIDER_ID,
          { mobile_number: "5111 8021" }
        )
        const session = started.session.ok ? started.session.data.session! : null
        expect(session).toBeTruthy()
        await paylater().approveRequest(session!.id)
        const l = await eventually(() => ledger(started.cart.id), (v) => v.orders === 1 && v.captures === 1)
        await watch.waitForFinished(1)

        const activity = await activityOf(l.orderId!)
        // PayLater notifies "pending" as soon as the request reaches the app, then "success".
        expect(kinds(activity)).toEqual(["request_sent", "webhook_verified:pending", "webhook_verified:success", "captured:captured"])
        expectChronological(activity)
        expect(activity.history[0]).toMatchObject({
          title: "Request to Pay sent to the shopper's PayLater app",
          detail: `360.00 QAR, to 974*****021, PayLater order ${session!.id}`,
        })
        expect(activity.paylater).toMatchObject({ method: "request_to_pay", state: "paid", mobile_number_masked: "974*****021" })
        // The webhook came before the capture: the window starts at the webhook.
        expect(activity.paylater!.refund_window!.paid_at).toBe(activity.history[2].at)
        expect(JSON.stringify(activity)).not.toMatch(/51118021/)
      } finally {
        await watch.stop()
      }
    })
  })

  describe("Check with PayLater now", () => {
    it("records the payment of a point-of-sale request whose webhook was lost, once, however often it is pressed", async () => {
      const orderId = await orderWithOutstandingAmount(api, admin, seed)
      const sent = await requestToPayApi(api, admin, orderId).send("5111 8021")
      expect(sent.status).toBe(201)
      const sessionId: string = sent.data.request_to_pay.request.session_id
      await paylater().approveRequest(sessionId)

      const before = await activityOf(orderId)
      expect(before.paylater).toMatchObject({ state: "waiting", method: "request_to_pay" })

      const first = await check(orderId)
      expect(first.status).toBe(200)
      expect(first.data.checks).toEqual([
        expect.objectContaining({ session_id: sessionId, source: "admin", paylater_status: "success", state: "paid", processed: true }),
      ])
      expect(first.data.activity.paylater).toMatchObject({ state: "paid", captured_amount: "360.00" })

      const second = await check(orderId)
      expect(second.status).toBe(200)
      expect(second.data.checks).toEqual([
        expect.objectContaining({ paylater_status: "success", state: "paid", mismatch: false }),
      ])

      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: ["payment_collections.payments.id", "payment_collections.payments.captures.id"],
        filters: { id: orderId },
      })
      const payments = (data[0].payment_collections ?? []).flatMap((pc: any) => pc.payments ?? [])
      expect(payments).toHaveLength(1)
      expect(payments[0].captures).toHaveLength(1)
      const order = await api.get(`/admin/orders/${orderId}?fields=payment_status`, admin)
      expect(order.data.order.payment_status).toBe("captured")

      const activity = await activityOf(orderId)
      expect(kinds(activity)).toEqual([
        "request_sent",
        // The Request to Pay card's own refresh right after sending (what the POST answers).
        "status_checked:pending",
        "captured:captured",
        "status_checked:success",
        "status_checked:success",
      ])
      expectChronological(activity)
      expect(activity.history[1]).toMatchObject({ title: "Status checked (Request to Pay card)", detail: "PayLater says pending" })
      expect(activity.history[3]).toMatchObject({
        title: "Checked with PayLater by staff",
        detail: "PayLater says success; payment recorded by this check",
      })
      expect(activity.history[4].detail).toBe("PayLater says success")
    })

    it("confirms a paid link order without doubling anything", async () => {
      const { orderId, cartId } = await paidLinkOrder()
      const res = await check(orderId)
      expect(res.status).toBe(200)
      expect(res.data.checks).toEqual([expect.objectContaining({ paylater_status: "success", state: "paid", mismatch: false })])
      expect(kinds(res.data.activity).slice(-1)).toEqual(["status_checked:success"])
      expect(await ledger(cartId)).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
    })

    it("answers 404 for an unknown order and an empty view for an order PayLater did not touch", async () => {
      expect((await api.get(`/admin/paylater/orders/order_unknown/activity`, { ...admin, ...keep })).status).toBe(404)
      expect((await check("order_unknown")).status).toBe(404)
      const orderId = await orderWithOutstandingAmount(api, admin, seed)
      expect(await activityOf(orderId)).toEqual({ order_id: orderId, paylater: null, history: [], attempts: [] })
      const res = await check(orderId)
      expect(res.data.checks).toEqual([])
    })

    it("is for staff only", async () => {
      expect((await api.get(`/admin/paylater/orders/order_x/activity`, keep)).status).toBe(401)
      expect((await api.post(`/admin/paylater/orders/order_x/check`, {}, keep)).status).toBe(401)
    })
  })

  describe("when the activity log fails", () => {
    it("still redirects, processes webhooks and answers the activity from Medusa's records", async () => {
      const service = getContainer().resolve(PAYLATER_LEDGER_MODULE) as any
      const record = service.record
      const list = service.listForPayments
      let attempts = 0
      service.record = async () => {
        attempts += 1
        throw new Error("activity store down")
      }
      service.listForPayments = async () => {
        throw new Error("activity store down")
      }
      try {
        const c = await linkSession()
        const back = await shopperDecides(c.session as never, "approve")
        expect(back.status).toBe(303)
        const l = await ledger(c.cartId)
        expect(back.location).toMatch(new RegExp(`/order/confirmed/${l.orderId}$`))
        const res = await postWebhook(signed(c.session.id, "success"))
        expect(res.status).toBe(200)
        expect(res.data).toEqual({ message: "Webhook received successfully" })
        await eventually(async () => attempts, (n) => n >= 2)
        expect(await ledger(c.cartId)).toMatchObject({ orders: 1, payments: 1, captures: 1 })

        const activity = await activityOf(l.orderId!)
        expect(kinds(activity)).toEqual(["link_created", "captured:captured"])
        expect(activity.paylater).toMatchObject({ state: "paid" })
        const checked = await check(l.orderId!)
        expect(checked.status).toBe(200)
      } finally {
        service.record = record
        service.listForPayments = list
      }
    })
  })
}

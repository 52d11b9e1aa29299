/**
 * The refund guard and Settings → PayLater's routes, over Medusa's real admin API, a real
 * PostgreSQL and the PayLater sandbox with its fault injection: a refund whose answer is lost blocks
 * further refunds of the payment until an operator records what PayLater did; partial refunds add
 * up exactly and never pass what was paid; the page's overview, connection test and webhook counts.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import { Modules } from "@medusajs/framework/utils"
import { runReconciliation } from "../../../src/job-runs/run-jobs"
import { listUnsentRefunds } from "../../../src/reconciliation/unsent-refunds"
import { signWebhook } from "../../../src/lib/paylater"
import { PAYLATER_LEDGER_MODULE, type PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { decideOnLink, followToApp } from "../paylater-link/shopper"

// The app and the sandbox: fast-timeout-app.spec.ts (a lost refund answer costs 1.5 s, and tokens
// outlive the sandbox clock's jump past the 10-minute refund window).
const MINUTE = 60_000

export function refundGuard({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  const keep = { validateStatus: () => true }

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
    paylater().setWebhookUrl(null)
  })

  /** A 360.00 QAR link checkout paid and ordered through the return route, refund window open. */
  async function paidOrder(opts: { windowOpen?: boolean } = {}) {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    const back = await followToApp(api, await decideOnLink(String(session.data.payment_link_url), "approve"))
    expect(back.status).toBe(303)
    const ledger = await ledgerForCart(getContainer(), started.cart.id)
    expect(ledger).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
    if (opts.windowOpen !== false) paylater().advanceClock(11 * MINUTE)
    return { sessionId: session.id, paymentId: payment.id, orderId: ledger.orderId!, cartId: started.cart.id }
  }

  const refund = (paymentId: string, amount: number | string) =>
    api.post(`/admin/payments/${paymentId}/refund`, { amount: Number(amount) }, { ...admin, ...keep })
  const attention = async () => (await api.get("/admin/paylater/attention", { ...admin, ...keep })).data.attention
  const resolve = (id: string, resolution: string) =>
    api.post(`/admin/paylater/attention/${id}/resolve`, { resolution }, { ...admin, ...keep })
  const medusaRefunds = async (paymentId: string) =>
    (await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: paymentId })).map((r) => Number(r.amount))
  const paymentData = async (paymentId: string) =>
    (await getContainer().resolve(Modules.PAYMENT).retrievePayment(paymentId, { select: ["data"] })).data as Record<string, unknown>

  describe("refund whose answer is lost", () => {
    it("blocks a second refund until an operator confirms it was refunded; then it is booked, not re-sent", async () => {
      const { sessionId, paymentId, orderId } = await paidOrder()
      // PayLater pays the refund out, and its answer never arrives.
      paylater().fault({ endpoint: "refund", mode: "timeout", commit: true })
      const lost = await refund(paymentId, 100)
      expect(lost.status).toBeGreaterThanOrEqual(400)
      expect(lost.data.message).toMatch(/did not confirm the refund.*Settings → PayLater/)
      expect(paylater().order(sessionId)!.refunds).toHaveLength(1)
      // Medusa deleted its own refund record when the provider threw.
      expect(await medusaRefunds(paymentId)).toEqual([])

      const second = await refund(paymentId, 50)
      expect(second.status).toBe(400)
      expect(second.data).toMatchObject({ type: "not_allowed", message: expect.stringMatching(/refund of 100.00 QAR .* outcome is unknown/) })
      expect(paylater().order(sessionId)!.refunds).toHaveLength(1)

      const [item] = await attention()
      expect(item).toMatchObject({
        kind: "refund_outcome_unknown",
        amount: "100.00",
        order_id: orderId,
        payment_id: paymentId,
        paylater_order_id: sessionId,
        resolutions: ["refunded", "not_refunded"],
        can_refund: false,
      })
      expect((await resolve(item.id, "resolved")).status).toBe(400)

      const resolved = await resolve(item.id, "refunded")
      expect(resolved.status).toBe(200)
      expect(resolved.data).toMatchObject({ booked: true, booking_error: null, attention: { status: "resolved", resolution: "refunded" } })
      // Recorded on the order through Medusa's refund, and nothing more sent to PayLater.
      expect(await medusaRefunds(paymentId)).toEqual([100])
      expect(paylater().order(sessionId)!.refunds).toHaveLength(1)
      expect(await attention()).toEqual([])
      // Resolving again changes nothing (no second booking).
      expect((await resolve(item.id, "refunded")).data.booked).toBe(false)
      expect(await medusaRefunds(paymentId)).toEqual([100])

      const third = await refund(paymentId, 50)
      expect(third.status).toBe(200)
      expect(paylater().order(sessionId)!.refunds.map((r) => r.amount)).toEqual(["100.00", "50.00"])
      expect(await paymentData(paymentId)).toMatchObject({ paylater_refunded_amount: "150.00" })
    })

    it("after 'not refunded', the next refund is allowed and a full one is sent as full", async () => {
      const { sessionId, paymentId } = await paidOrder()
      paylater().fault({ endpoint: "refund", mode: "timeout" })
      expect((await refund(paymentId, 360)).status).toBeGreaterThanOrEqual(400)
      expect(paylater().order(sessionId)!.refunds).toHaveLength(0)
      expect((await refund(paymentId, 360)).status).toBe(400)

      const [item] = await attention()
      const resolved = await resolve(item.id, "not_refunded")
      expect(resolved.data).toMatchObject({ booked: false, attention: { resolution: "not_refunded" } })

      const again = await refund(paymentId, 360)
      expect(again.status).toBe(200)
      expect(paylater().order(sessionId)!.refunds).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    })
  })

  it("takes a refund left pending by a process that died as unknown, and lists it", async () => {
    const { sessionId, paymentId } = await paidOrder()
    const ledgerModule = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    await ledgerModule.createPayLaterRefundAttempts({
      paylater_order_id: sessionId,
      payment_id: paymentId,
      amount: 25 as never,
      status: "pending",
      sent_at: new Date(Date.now() - 60 * MINUTE),
    })
    const refused = await refund(paymentId, 10)
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/refund of 25.00 QAR .* outcome is unknown/)
    // Committed despite the refusal: the item is there for a person to resolve.
    expect(await attention()).toEqual([
      expect.objectContaining({ kind: "refund_outcome_unknown", amount: "25.00", detail: expect.objectContaining({ error_code: "ABANDONED" }) }),
    ])
    expect(paylater().order(sessionId)!.refunds).toHaveLength(0)
  })

  it("lists, once, a refund Medusa kept that never reached PayLater (its process or connection died before Medusa dropped it)", async () => {
    const { sessionId, paymentId, orderId } = await paidOrder()
    // What Medusa's refundPayment leaves when it dies between its record and the provider: a record, nothing sent.
    // (The module's generated create, which its refundPayment uses before calling the provider.)
    const payment = getContainer().resolve(Modules.PAYMENT) as unknown as { createRefunds(data: object[]): Promise<Array<{ id: string }>> }
    const [kept] = await payment.createRefunds([{ payment_id: paymentId, amount: 60, note: "recorded, then the process died" }])
    // A refund that went through the guard is PayLater's to pay, never listed.
    expect((await refund(paymentId, 40)).status).toBe(200)
    expect(paylater().order(sessionId)!.refunds).toEqual([expect.objectContaining({ amount: "40.00" })])

    // Not while it could still be in flight; listed once it cannot.
    expect(await listUnsentRefunds(getContainer())).toEqual([])
    const later = new Date(Date.now() + 20 * MINUTE)
    expect(await listUnsentRefunds(getContainer(), later)).toEqual([{ refund_id: kept.id, payment_id: paymentId, amount: "60.00" }])
    expect(await listUnsentRefunds(getContainer(), later)).toEqual([])
    const items = await attention()
    expect(items).toEqual([
      expect.objectContaining({ kind: "mismatch", amount: "60.00", payment_id: paymentId, paylater_order_id: sessionId, order_id: orderId }),
    ])
    expect(items[0].summary).toMatch(new RegExp(`refund of 60.00 QAR \\(${kept.id}\\).*never paid out.*merchant portal`))
    expect(paylater().order(sessionId)!.refunds).toHaveLength(1)
  })

  it("adds partial refunds up exactly and never refunds more than was paid", async () => {
    const { sessionId, paymentId } = await paidOrder()
    for (const amount of ["100.10", "59.95", "0.05", "199.90"]) {
      const res = await refund(paymentId, amount)
      expect(res.status).toBe(200)
    }
    expect(await paymentData(paymentId)).toMatchObject({ paylater_refunded_amount: "360.00" })
    expect(paylater().order(sessionId)!.refunds.map((r) => r.amount)).toEqual(["100.10", "59.95", "0.05", "199.90"])
    expect((await refund(paymentId, "0.01")).status).toBe(400)
    expect(paylater().order(sessionId)!.refunds).toHaveLength(4)
  })

  describe("Settings → PayLater routes", () => {
    it("need an admin", async () => {
      for (const path of ["settings", "attention"]) {
        expect((await api.get(`/admin/paylater/${path}`, keep)).status).toBe(401)
      }
      expect((await api.post("/admin/paylater/test-connection", {}, keep)).status).toBe(401)
    })

    it("show environment, outlet, API base and webhook URL, and nothing secret", async () => {
      const res = await api.get("/admin/paylater/settings", { ...admin, ...keep })
      expect(res.status).toBe(200)
      expect(res.data.paylater.registrations).toEqual([
        expect.objectContaining({
          id: "paylater",
          environment: "sandbox",
          outlet_id: 1000000061,
          api_base_url: paylater.url(),
          webhook_url: "http://localhost:9000/paylater/webhooks",
        }),
      ])
      const text = JSON.stringify(res.data)
      for (const secret of [paylater().options.clientSecret, paylater().options.webhookSecret]) {
        expect(text).not.toContain(secret)
      }
    })

    it("test the connection by fetching a token, and say plainly when it fails", async () => {
      const ok = await api.post("/admin/paylater/test-connection", {}, { ...admin, ...keep })
      expect(ok.data.results).toEqual([expect.objectContaining({ id: "paylater", ok: true, message: expect.stringMatching(/^Connected/) })])
      paylater().fault({ endpoint: "token", mode: "error", status: 503 })
      const down = await api.post("/admin/paylater/test-connection", {}, { ...admin, ...keep })
      expect(down.data.results[0]).toMatchObject({ ok: false, message: expect.stringMatching(/^Not connected \(sandbox/) })
      expect(JSON.stringify(down.data)).not.toContain(paylater().options.clientSecret)
    })

    it("count webhooks received and refused, with the last refusal's reason", async () => {
      const post = (body: unknown) => api.post("/paylater/webhooks", body, { ...keep, headers: { "content-type": "application/json" } })
      const { merchantId, webhookSecret } = paylater().options
      const genuine = signWebhook({ merchantId, orderId: "payses_unknown", status: "success", timestamp: Date.now() }, webhookSecret)
      // The app is shared: the sandbox may still deliver an earlier suite's notification meanwhile, so
      // this counts what it adds on top of what was counted before.
      const webhooks = async () => (await api.get("/admin/paylater/settings", admin)).data.paylater.webhooks
      const before = await webhooks()
      expect((await post(genuine)).status).toBe(200)
      expect((await post({ ...genuine, signature: "0".repeat(64) })).status).toBe(403)
      // Counted off the request path, written within a second or so.
      const counted = await eventually(webhooks, (w) => w.accepted >= before.accepted + 1 && w.refused === before.refused + 1)
      expect(counted).toMatchObject({ failed: 0, last_refusal_reason: "PayLater webhook refused: Invalid signature" })
    })

    it("list what any code flags for attention, never the order's own money, and mark items resolved", async () => {
      const { sessionId, paymentId, orderId } = await paidOrder()
      const ledgerModule = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
      const flag = () =>
        ledgerModule.flagForAttention("paid_without_order", {
          dedupe_key: `paid_without_order:${sessionId}`,
          summary: "Paid at PayLater, but the order could not be placed",
          amount: "360.00",
          paylater_order_id: sessionId,
          payment_id: paymentId,
        })
      const flagged = await flag()
      expect((await flag()).id).toBe(flagged.id)
      await ledgerModule.flagForAttention("mismatch", { summary: "PayLater says failed, the store says paid", paylater_order_id: sessionId })

      const listed = await attention()
      // The list is a view of the ledger: an item about money the order holds leaves it at once, with
      // the reason (issue 31); the mismatch stays for a person.
      expect(listed).toHaveLength(1)
      const mismatch = listed[0]
      expect(mismatch).toMatchObject({ kind: "mismatch", resolutions: ["resolved"], can_refund: false })
      expect((await api.post(`/admin/paylater/attention/${mismatch.id}/refund`, {}, { ...admin, ...keep })).status).toBe(400)
      const closed = (await api.get("/admin/paylater/attention?status=resolved", admin)).data.attention.find(
        (i: { id: string }) => i.id === flagged.id
      )
      expect(closed).toMatchObject({ status: "resolved", resolution: "resolved", can_refund: false })
      expect(closed.resolution_note).toContain(orderId)

      // The order's money is never refunded from the list: refused with the reason, nothing sent.
      const refused = await api.post(`/admin/paylater/attention/${flagged.id}/refund`, { amount: "60.00" }, { ...admin, ...keep })
      expect(refused.status).toBe(409)
      expect(refused.data.message).toContain(orderId)
      expect(paylater().order(sessionId)!.refunds).toEqual([])
      expect(await medusaRefunds(paymentId)).toEqual([])

      expect((await resolve(mismatch.id, "resolved")).data.attention).toMatchObject({ status: "resolved", resolved_by: admin.userId })
      expect(await attention()).toEqual([])
      expect((await api.get("/admin/paylater/attention?status=resolved", admin)).data.attention).toHaveLength(2)
    })

    it("show the last reconciliation run and the next", async () => {
      const previous = process.env.PAYLATER_RECONCILE_SCHEDULE
      process.env.PAYLATER_RECONCILE_SCHEDULE = "*/2 * * * *"
      try {
        // The job's own work (run-jobs.ts): the job function would also start its watchdog in this test process.
        await runReconciliation(getContainer(), "schedule")
        const { reconciliation } = (await api.get("/admin/paylater/settings", admin)).data.paylater
        expect(reconciliation.schedule).toBe("*/2 * * * *")
        expect(reconciliation.last_run).toMatchObject({ ran: true, error: null })
        expect(Date.parse(reconciliation.next_run_at)).toBeGreaterThan(Date.now() - 1000)
        expect(Date.parse(reconciliation.next_run_at)).toBeLessThanOrEqual(Date.now() + 2 * MINUTE)
        expect(reconciliation.last_run.trigger).toBe("schedule")
        expect(reconciliation.scheduler_stalled_since).toBeNull()

        // The scheduler's runs stopped 10 minutes ago (a Redis that lost its data) and the watchdog stands in.
        const ledgerModule = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
        const runs = await ledgerModule.listPayLaterReconcileRuns({}, { select: ["id"] })
        const tenMinutesAgo = new Date(Date.now() - 10 * MINUTE)
        await ledgerModule.updatePayLaterReconcileRuns(runs.map((r) => ({ id: r.id, started_at: tenMinutesAgo, finished_at: tenMinutesAgo })))
        await runReconciliation(getContainer(), "watchdog")
        const stalled = (await api.get("/admin/paylater/settings", admin)).data.paylater.reconciliation
        expect(stalled.scheduler_stalled_since).toBe(tenMinutesAgo.toISOString())
        expect(stalled.last_run).toMatchObject({ trigger: "watchdog", ran: true })
      } finally {
        process.env.PAYLATER_RECONCILE_SCHEDULE = previous
      }
    })
  })
}

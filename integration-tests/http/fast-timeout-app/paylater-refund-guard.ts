/**
 * The refund guard and Settings → PayLater's routes, over Medusa's real admin API, a real
 * PostgreSQL and the PayLater sandbox with its fault injection: a refund left pending by a process
 * that died is taken as unknown and listed; a refund Medusa kept but never sent is listed once; the
 * page's registrations (nothing secret in its JSON), connection test, webhook counts, last
 * reconciliation run and attention list.
 *
 * Proven elsewhere (issue 43 moved them out of here): the guard blocking a second refund until staff
 * record PayLater's answer, end to end in the demo's Settings → PayLater journey and in
 * refund-ledger.suite.ts; partial refunds adding up exactly and never passing what was paid in
 * refund.suite.ts and refund-ledger.suite.ts; after "not refunded" the next refund going through in
 * no-secret-leaks.spec.ts.
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
    // Only PayLater's answer closes it: a resolution this kind does not offer is refused, and it stays open.
    const [item] = await attention()
    const unoffered = await resolve(item.id, "resolved")
    expect({ status: unoffered.status, message: unoffered.data.message }).toEqual({
      status: 400,
      message: expect.stringMatching(/does not resolve a refund outcome unknown item; use "refunded" or "not_refunded"/),
    })
    expect(await attention()).toEqual([expect.objectContaining({ id: item.id, status: "open" })])
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

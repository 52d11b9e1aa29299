/**
 * "Never lose a paid order": PayLater slow, failing, timing out (garbage answers: the client's unit
 * tests, the same unanswered road), its token endpoint down, webhooks dropped, duplicated, late and reordered. For each fault the shopper gets
 * a clear answer (an error message, a redirect with a reason, the pending page or the waiting
 * screen), no request hangs (every HTTP call has a client timeout), and once the fault is over the
 * reconciliation workflow (or its scheduled job) leaves exactly one order and one capture for a paid
 * checkout and none for an unpaid one. Real PostgreSQL, the sandbox over HTTP.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import payLaterReconcileJob from "../../src/jobs/paylater-reconcile"
import { runReconciliation } from "../../src/job-runs/run-jobs"
import { logRef, signWebhook } from "../../src/lib/paylater"
import { payLaterReconcileWorkflow, type PayLaterReconcileInput } from "../../src/workflows/paylater-reconcile/workflow"
import { useSandbox } from "../helpers/sandbox"
import { atStoreTime } from "../helpers/store-clock"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } from "../helpers/seed"
import { startCheckout } from "../helpers/store-client"
import { CLIENT_TIMEOUT_MS, decideOnLink, returnToStore } from "./paylater-faults/http"
import { eventually, ledgerForCart } from "./paylater-link/ledger"
import { waitForWebhookTurns, watchProcessPayment, webhookTurnsEnded, type PipelineWatch } from "./paylater-link/pipeline"
import { readScreen } from "./paylater-rtp/waiting-screen"

jest.setTimeout(120_000)

// A short PayLater timeout so that "PayLater never answers" costs seconds, not the default 15 s per
// attempt. medusa-config reads it when the app boots (after this hook); restored for the next file.
const previousTimeout = process.env.PAYLATER_TIMEOUT_MS
beforeAll(() => {
  process.env.PAYLATER_TIMEOUT_MS = "1000"
})
afterAll(() => {
  if (previousTimeout === undefined) delete process.env.PAYLATER_TIMEOUT_MS
  else process.env.PAYLATER_TIMEOUT_MS = previousTimeout
})

const paylater = useSandbox()
const STOREFRONT = process.env.STOREFRONT_URL ?? "http://localhost:8000"
const confirmedUrl = (orderId: string | null) => `${STOREFRONT}/order/confirmed/${orderId}`
// The redirects name no cart (docs/security.md): the storefront keeps its own.
const pendingUrl = (_cartId: string) => `${STOREFRONT}/order/pending`
const failureUrl = (reason: string, _cartId: string) => `${STOREFRONT}/checkout?step=payment&paylater_error=${reason}`
const UNREACHABLE_AT_START = "PayLater could not be reached to start the payment. Please try again in a moment."

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
    const logged: Array<{ level: string; line: string }> = []

    beforeAll(async () => {
      // Every call the tests make through the runner's client gets a timeout too.
      api.defaults.timeout = CLIENT_TIMEOUT_MS
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<string, unknown>
      for (const level of ["info", "warn", "error"]) {
        const original = logger[level] as (...a: unknown[]) => unknown
        logger[level] = (...args: unknown[]) => {
          logged.push({ level, line: args.map((a) => (typeof a === "string" ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(" ") })
          return original.apply(logger, args)
        }
      }
    })

    let watch: PipelineWatch
    beforeEach(async () => {
      logged.length = 0
      watch = await watchProcessPayment(getContainer())
    })
    afterEach(async () => {
      paylater().clearFaults()
      await watch.stop()
    })

    const container = (): MedusaContainer => getContainer()
    const ledger = (cartId: string) => ledgerForCart(container(), cartId)
    // Each row has its own next-ask time (2 minutes after a question, doubling: 2, 4, 8, 16, 30): a
    // test's n-th run happens just past its row's n-th next-ask time, on the store's clock, as the
    // scheduled runs would, and the first four stay inside the link's 60-minute window.
    const RUN_AT_MINUTES = [3, 8, 17, 34, 65, 96, 127]
    let runs = 0
    beforeEach(() => {
      runs = 0
    })
    const reconcile = async (input: PayLaterReconcileInput = {}) => {
      const at = RUN_AT_MINUTES[Math.min(runs++, RUN_AT_MINUTES.length - 1)] * 60_000
      return (await atStoreTime(at, () => payLaterReconcileWorkflow(container()).run({ input }))).result
    }
    const outcomeOf = (r: Awaited<ReturnType<typeof reconcile>>, id: string) => r.results.find((x) => x.id === id)?.outcome

    async function checkout(providerId = PAYLATER_PROVIDER_ID, data?: Record<string, unknown>) {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, providerId, data)
      if (!started.session.ok || !started.session.data.session) {
        throw new Error(`session not created: ${JSON.stringify(started.session)}`)
      }
      const session = started.session.data.session
      return { cart: started.cart, paymentCollection: started.paymentCollection, session, data: session.data as Record<string, any> }
    }

    async function sessionRow(id: string) {
      const [s] = await container().resolve(Modules.PAYMENT).listPaymentSessions({ id })
      return s
    }

    function signed(orderId: string, status: "success" | "failed" | "pending") {
      const { merchantId, webhookSecret } = paylater().options
      return signWebhook({ merchantId, orderId, status, timestamp: Date.now() }, webhookSecret)
    }

    /** The shopper pays; both notifications (pending on opening the page, then success) are lost. */
    async function payWithWebhooksDropped(linkUrl: string) {
      paylater().webhookFault({ mode: "drop", count: 2 })
      await decideOnLink(linkUrl, "approve")
      const deliveries = await paylater().waitForDeliveries((d) => d.some((x) => x.status === "success"), 15_000)
      expect(deliveries.map((d) => `${d.status} ${d.outcome}`)).toEqual(["pending dropped", "success dropped"])
    }

    describe("PayLater failing while the shopper comes back", () => {
      it("slow but inside the timeout: the return route still confirms and places one order", async () => {
        const { cart, session, data } = await checkout()
        paylater().webhookFault({ mode: "drop", count: 2 })
        const location = await decideOnLink(data.payment_link_url, "approve")
        paylater().fault({ endpoint: "status", mode: "slow", delayMs: 300, count: 5 })
        const back = await returnToStore(api, session.id)
        const l = await ledger(cart.id)
        expect(new URL(location).pathname).toBe(`/paylater/return/${session.id}`)
        expect(back).toMatchObject({ status: 303, location: confirmedUrl(l.orderId) })
        expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        expect(paylater().requests().some((r) => r.endpoint === "status" && r.fault === "slow")).toBe(true)

        // Reconciliation afterwards finds nothing to do.
        const run = await reconcile()
        expect(outcomeOf(run, session.id)).toBeUndefined()
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })

      it.each([
        ["failing with 5xx", { mode: "error", status: 503 }],
        ["timing out", { mode: "timeout" }],
        // Garbage ends in the same place (the client's UNEXPECTED_RESPONSE, client.errors.suite.ts;
        // settlement's "unavailable" for any unanswered question, settle.suite.ts).
      ] as const)("%s: the shopper sees the pending page, reconciliation places the order once PayLater is back", async (_label, fault) => {
        const { cart, session, data } = await checkout()
        await payWithWebhooksDropped(data.payment_link_url)

        paylater().fault({ endpoint: "status", ...fault, count: 50 })
        const back = await returnToStore(api, session.id)
        expect(back).toMatchObject({ status: 303, location: pendingUrl(cart.id) })
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })
        // Still down: the run asks, gets nothing, changes nothing, and stops after a few failures.
        const down = await reconcile()
        expect(outcomeOf(down, session.id)).toBe("unavailable")
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })
        expect((await sessionRow(session.id)).status).toBe("pending")

        paylater().clearFaults()
        const run = await reconcile()
        expect(run.ran).toBe(true)
        expect(outcomeOf(run, session.id)).toBe("paid")
        const l = await ledger(cart.id)
        expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        // The shopper reloads the pending page's link back to the store: confirmed.
        expect((await returnToStore(api, session.id)).location).toBe(confirmedUrl(l.orderId))
        // A second run changes nothing; nor does the late webhook (once is enough: each costs the pipeline's delay).
        expect(outcomeOf(await reconcile(), session.id)).toBeUndefined()
        if (fault.mode === "error") {
          await api.post("/paylater/webhooks", signed(session.id, "success"), { validateStatus: () => true })
          await watch.waitForFinished(2)
        }
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })
    })

    describe("PayLater failing while the shopper starts paying", () => {
      it.each([
        ["token endpoint down", { endpoint: "token", mode: "error", status: 503 }],
        ["payment link endpoint failing with 5xx", { endpoint: "link", mode: "error", status: 500 }],
        ["payment link endpoint timing out", { endpoint: "link", mode: "timeout" }],
      ] as const)("%s: a message the storefront can show, no session, and a retry after recovery pays once", async (_label, fault) => {
        // A token fault only bites when a token is fetched: make the app's cached one stale first.
        if (fault.endpoint === "token") paylater().advanceClock(6 * 60_000)
        paylater().fault({ ...fault, count: 50 })
        const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
        const pc = await store.createPaymentCollection(cart.id)
        const refused = await store.createPaymentSession(pc.id, PAYLATER_PROVIDER_ID)
        expect(refused.ok).toBe(false)
        if (refused.ok) return
        expect(refused.status).toBe(500)
        expect(refused.error.message).toBe(UNREACHABLE_AT_START)
        expect(await container().resolve(Modules.PAYMENT).listPaymentSessions({ payment_collection_id: pc.id })).toHaveLength(0)

        paylater().clearFaults()
        const again = await store.createPaymentSession(pc.id, PAYLATER_PROVIDER_ID)
        if (!again.ok) throw new Error(JSON.stringify(again.error))
        const session = again.data.session!
        paylater().setWebhookUrl(null)
        const back = await returnToStore(api, session.id).then(async (pending) => {
          expect(pending.location).toBe(pendingUrl(cart.id))
          await decideOnLink((session.data as any).payment_link_url, "approve")
          return returnToStore(api, session.id)
        })
        const l = await ledger(cart.id)
        expect(back.location).toBe(confirmedUrl(l.orderId))
        await reconcile()
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })
    })

    describe("webhook faults", () => {
      it("dropped, shopper never returns: the scheduled job places the order, once", async () => {
        const { cart, session, data } = await checkout()
        await payWithWebhooksDropped(data.payment_link_url)
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })

        // The job's own work, as the scheduler's job function runs it (run-jobs.ts; the job function
        // would also start its schedule watchdog in this test process).
        await runReconciliation(container(), "schedule")
        const l = await ledger(cart.id)
        expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        expect(logged.some((x) => x.level === "info" && /PayLater reconciliation: checked 1 of 1 \(1 paid\)/.test(x.line))).toBe(true)
        expect((await returnToStore(api, session.id)).location).toBe(confirmedUrl(l.orderId))

        // "off" really is off.
        await payLaterReconcileJob(container())
        expect(await reconcile()).toMatchObject({ ran: true, eligible: 0, results: [] })
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })

      it("duplicated: processed once, and reconciliation has nothing left to do", async () => {
        const { cart, data } = await checkout()
        const hooksBefore = webhookTurnsEnded()
        paylater().webhookFault({ mode: "duplicate", count: 3 })
        await decideOnLink(data.payment_link_url, "approve")
        await paylater().waitForDeliveries((d) => d.filter((x) => x.status === "success" && x.outcome === "delivered").length === 2, 15_000)
        // Both settled in turn; the second finds the order, or (past the session lock's wait under load)
        // answers from the records without announcing: one announcement at least.
        await waitForWebhookTurns(hooksBefore, 2)
        expect(watch.finished()).toBeGreaterThanOrEqual(1)
        expect(watch.failed()).toBe(0)
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        expect(await reconcile()).toMatchObject({ eligible: 0 })
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })

      it("delayed past the return: the return places the order, the late webhook and a run change nothing", async () => {
        const { cart, session, data } = await checkout()
        paylater().webhookFault({ mode: "delay", delayMs: 2_000, count: 3 })
        await decideOnLink(data.payment_link_url, "approve")
        const back = await returnToStore(api, session.id)
        const l = await ledger(cart.id)
        expect(back.location).toBe(confirmedUrl(l.orderId))
        expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        await paylater().waitForDeliveries((d) => d.some((x) => x.status === "success" && x.outcome === "delivered"), 15_000)
        await watch.waitForFinished(1)
        await reconcile()
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })

      it("reordered (pending after success): one order, the session stays paid", async () => {
        const { cart, session, data } = await checkout()
        paylater().webhookFault({ mode: "reorder" })
        // Opening the page sends "pending" (held back); approving sends "success", then the "pending".
        await decideOnLink(data.payment_link_url, "approve")
        const delivered = await paylater().waitForDeliveries((d) => d.filter((x) => x.outcome === "delivered").length === 2, 15_000)
        expect(delivered.filter((d) => d.outcome === "delivered").map((d) => d.status)).toEqual(["success", "pending"])
        await eventually(() => ledger(cart.id), (v) => v.orders === 1)
        await watch.waitForFinished(1)
        await reconcile()
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        expect((await sessionRow(session.id)).status).toBe("authorized")
      })

      it("dropped for a decline: reconciliation closes the session with the reason, no order", async () => {
        const { cart, session, data } = await checkout()
        paylater().webhookFault({ mode: "drop", count: 3 })
        await decideOnLink(data.payment_link_url, "decline")
        const run = await reconcile()
        expect(outcomeOf(run, session.id)).toBe("failed")
        const s = await sessionRow(session.id)
        expect(s.status).toBe("error")
        // The reason is the ledger row's (the return below is sent back with it); the data keeps no copy.
        expect(s.data).not.toHaveProperty("paylater_status")
        expect(s.data).not.toHaveProperty("paylater_failure_reason")
        expect((await returnToStore(api, session.id, "fail")).location).toBe(failureUrl("declined", cart.id))
        // Closed sessions are not asked about again.
        expect(outcomeOf(await reconcile(), session.id)).toBeUndefined()
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })
      })
    })

    describe("Request to Pay", () => {
      it("PayLater down and the webhook lost: the waiting screen keeps waiting, reconciliation places the order once", async () => {
        const { cart, session } = await checkout(PAYLATER_RTP_PROVIDER_ID, { mobile_number: "5111 8021" })
        paylater().webhookFault({ mode: "drop", count: 3 })
        paylater().fault({ endpoint: "status", mode: "error", status: 502, count: 50 })
        await paylater().approveRequest(session.id)
        expect(await readScreen(store, session.id)).toMatchObject({ status: "waiting" })
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })

        paylater().clearFaults()
        const run = await reconcile()
        expect(outcomeOf(run, session.id)).toBe("paid")
        const l = await ledger(cart.id)
        expect(l).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        expect(await readScreen(store, session.id)).toEqual({ status: "paid", order_id: l.orderId })
      })
    })

    describe("concurrency", () => {
      it("two reconciliation runs at the same time plus the webhook give exactly one order", async () => {
        const { cart, session, data } = await checkout()
        paylater().setWebhookUrl(null)
        await decideOnLink(data.payment_link_url, "approve")
        // Both runs at the same store time, as two instances' scheduled jobs firing in the same minute,
        // and the clock moved back only once every settlement has finished (atStoreTime is not
        // reentrant: two overlapping calls would each move the clock, and the first to end would step
        // it back under the other and under the webhook's settlement).
        const run = async () => (await payLaterReconcileWorkflow(container()).run({ input: {} })).result
        const hooksBefore = webhookTurnsEnded()
        const [a, b, hook] = await atStoreTime(RUN_AT_MINUTES[0] * 60_000, async () => {
          const answers = await Promise.all([run(), run(), api.post("/paylater/webhooks", signed(session.id, "success"), { validateStatus: () => true })])
          // The money is settled by the winning run or by the webhook, whichever takes the session's
          // lock first; the other waits for it and finds the order, or (past the lock's wait, under
          // CI's load) answers from the records without acting or announcing. So: one settlement
          // announced, and the webhook's settlement over.
          await watch.waitForFinished(1)
          await waitForWebhookTurns(hooksBefore, 1)
          return answers
        })
        expect(hook.status).toBe(200)
        // One run holds the run lock; the other ends at once.
        expect([a.ran, b.ran].sort()).toEqual([false, true])
        const winner = a.ran ? a : b
        // "skipped": the webhook's settlement held the session past the run's lock wait, and placed it.
        expect(["paid", "skipped"]).toContain(outcomeOf(winner, session.id))
        expect(watch.finished()).toBeGreaterThanOrEqual(1)
        expect(watch.failed()).toBe(0)
        expect(await ledger(cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      })

      it("asks about at most batch_size payments per run and takes the rest next time", async () => {
        paylater().setWebhookUrl(null)
        const carts = []
        for (let i = 0; i < 3; i++) {
          const c = await checkout()
          await paylater().approveLink(c.session.id)
          carts.push(c)
        }
        const first = await reconcile({ batch_size: 2 })
        expect(first).toMatchObject({ eligible: 3, deferred: 1 })
        expect(first.results.map((r) => r.outcome)).toEqual(["paid", "paid"])
        const second = await reconcile({ batch_size: 2 })
        expect(second).toMatchObject({ eligible: 1, deferred: 0 })
        expect(second.results.map((r) => r.outcome)).toEqual(["paid"])
        for (const c of carts) {
          expect(await ledger(c.cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
        }
      })
    })

    describe("a deleted session's link paid anyway", () => {
      async function deleted() {
        const { cart, paymentCollection, session, data } = await checkout()
        // The shopper adds an item: Medusa deletes the cart's payment sessions (the link stays live at PayLater).
        const added = await store.post(`/store/carts/${cart.id}/line-items`, { variant_id: seed.variants.standard.id, quantity: 1 })
        expect(added.ok).toBe(true)
        const pg = container().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
        const rows = await pg.raw(`select count(*)::int as n from payment_session where id = ?`, [session.id])
        // A hard delete: no row with deleted_at remains to find it by. The attempt ledger keeps it.
        expect(rows.rows[0].n).toBe(0)
        const [collection] = await container()
          .resolve(Modules.PAYMENT)
          .listPaymentCollections({ id: paymentCollection.id }, { select: ["id", "metadata"] })
        // Nothing is kept in Medusa's data any more (no tombstones in the collection's metadata).
        expect(collection.metadata?.paylater_deleted_sessions).toBeUndefined()
        return { cart, paymentCollection, session, data }
      }

      it("is listed once as paid without an order, naming the reference, amount and cart; the shopper hears 'paid, not placed'", async () => {
        const { cart, session, data } = await deleted()
        paylater().webhookFault({ mode: "drop", count: 3 })
        await decideOnLink(data.payment_link_url, "approve")
        expect(paylater().order(session.id)!.status).toBe(2)
        // The shopper's way back: the session is gone, its ledger row is not.
        const back = await returnToStore(api, session.id)
        expect(back.status).toBe(303)
        expect(back.location).toMatch(/paylater_error=paid_not_placed/)
        // The redirect names no cart (docs/security.md): the storefront keeps its own.
        expect(back.location).not.toContain(cart.id)

        const run = await reconcile()
        expect([undefined, "paid_without_order"]).toContain(outcomeOf(run, session.id))
        const errors = logged.filter((x) => x.level === "error" && x.line.includes(logRef(session.id)))
        expect(errors).toHaveLength(1)
        // Named by short forms (the whole ids are keys; Settings → PayLater shows them to staff).
        expect(errors[0].line).not.toContain(session.id)
        expect(errors[0].line).toContain("360.00 QAR")
        expect(errors[0].line).toContain(logRef(cart.id))

        // Listed once: the next run does not ask again, and nothing more is logged.
        expect(outcomeOf(await reconcile(), session.id)).toBeUndefined()
        expect(logged.filter((x) => x.level === "error" && x.line.includes(logRef(session.id)))).toHaveLength(1)
        expect(await ledger(cart.id)).toMatchObject({ orders: 0, payments: 0 })
        // Refunded only once PayLater's refund window opens (fast-timeout-app/paylater-paid-without-order.ts).
        expect(paylater().order(session.id)!.refunds).toHaveLength(0)
      })

      it("a deleted session's link that is never paid ends quietly once PayLater says it ended", async () => {
        const { session } = await deleted()
        expect(outcomeOf(await reconcile(), session.id)).toBe("pending")
        paylater().advanceClock(61 * 60_000)
        expect(["failed", "expired"]).toContain(outcomeOf(await reconcile(), session.id))
        expect(outcomeOf(await reconcile(), session.id)).toBeUndefined()
        expect(logged.filter((x) => x.level === "error")).toEqual([])
      })
    })
  },
})

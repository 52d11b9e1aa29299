/**
 * Hostile input at both webhook routes, over real HTTP, with a real PostgreSQL: property-based
 * (fast-check, fixed seeds) so thousands of forged, malformed and odd bodies reach the app.
 *
 * The store holds three PayLater checkouts made in `beforeAll`:
 * - canary:  paid at PayLater but not yet known to Medusa (no webhook, no return). A notification
 *            that got through verification with status "success" would place its order;
 * - pending: the shopper opened the link and has not paid;
 * - paid:    paid and ordered through the return route.
 * Every property ends with the pipeline drained and the payment state (orders, payments, captures,
 * refunds, sessions, collections) compared with its value before: refusals must change nothing.
 */
import fc from "fast-check"
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import type { MedusaContainer } from "@medusajs/framework/types"
import { useSandbox } from "../helpers/sandbox"
import { paymentState, type PaymentState } from "../helpers/payment-state"
import { PAYLATER_PROVIDER_ID } from "../helpers/seed"
import { startCheckout } from "../helpers/store-client"
import { watchWebhookPipeline, type WebhookPipelineWatch } from "../helpers/webhook-pipeline"
import { ledgerForCart } from "./paylater-link/ledger"
import { watchProcessPayment, type PipelineWatch } from "./paylater-link/pipeline"
import { decideOnLink, followToApp } from "./paylater-link/shopper"
import {
  POLLUTION_MARK,
  flipCase,
  forgery,
  garbage,
  harmlessVariation,
  notification,
  type Keys,
  type Targets,
} from "./webhook-hostile/arbitraries"
import { closeWire, rawPost, refusalMessage, serialise, signedEntries, type WireResponse } from "./webhook-hostile/wire"

jest.setTimeout(240_000)

const PLUGIN_ROUTE = "/paylater/webhooks"
const CORE_ROUTE = "/hooks/payment/paylater_paylater"

/** Runs per property. About 2,600 requests in all; the whole file runs in about two minutes. */
const RUNS = {
  forgeries: 1000,
  garbage: 800,
  harmless: 300,
  replays: 120,
  coreRoute: 300,
}
/** Fixed seeds: a failure is replayed exactly by running the file again. */
const SEED = 0x7a11_2026

// The sandbox keeps its orders for the whole file: the checkouts below live in the database
// snapshot every test starts from, and PayLater has to keep agreeing with them.
const paylater = useSandbox({ resetEachTest: false })

afterAll(() => closeWire())

const utf8 = (text: string) => Buffer.from(text, "utf8")

function describeResponse(res: WireResponse): string {
  return `HTTP ${res.status} ${res.contentType} ${res.text.slice(0, 300)}`
}

function expectRefused(res: WireResponse, what: string): void {
  if (res.status !== 403 || refusalMessage(res) === null) {
    throw new Error(`${what}: expected 403 with a JSON message, got ${describeResponse(res)}`)
  }
}

function expectAccepted(res: WireResponse, what: string): void {
  if (res.status !== 200 || refusalMessage(res) !== "Webhook received successfully") {
    throw new Error(`${what}: expected 200 "Webhook received successfully", got ${describeResponse(res)}`)
  }
}

/** Object.prototype as it was when the file started: a polluting body would add to it. */
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
function expectNoPollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
  expect(({} as Record<string, unknown>)[POLLUTION_MARK]).toBeUndefined()
}

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer })
    let keys: Keys
    let base: string
    const ids = { canary: "", canaryCart: "", pending: "", paid: "", paidCart: "" }

    async function checkout() {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) {
        throw new Error(`session not created: ${JSON.stringify(started.session)}`)
      }
      const session = started.session.data.session
      return { cart: started.cart, session, data: session.data as Record<string, string> }
    }

    beforeAll(async () => {
      base = api.defaults.baseURL!
      const { merchantId, webhookSecret } = paylater().options
      keys = { merchantId, secret: webhookSecret }
      // Only the tests send notifications.
      paylater().setWebhookUrl(null)

      const canary = await checkout()
      await paylater().approveLink(canary.session.id)
      const pending = await checkout()
      paylater().openLink(pending.session.id)
      const paid = await checkout()
      const back = await followToApp(api, await decideOnLink(paid.data.payment_link_url, "approve"))
      if (back.status !== 303) throw new Error(`paid checkout did not return: ${JSON.stringify(back)}`)

      Object.assign(ids, {
        canary: canary.session.id,
        canaryCart: canary.cart.id,
        pending: pending.session.id,
        paid: paid.session.id,
        paidCart: paid.cart.id,
      })
    })

    let pipeline: WebhookPipelineWatch
    let processPayment: PipelineWatch
    let before: PaymentState
    beforeEach(async () => {
      pipeline = watchWebhookPipeline(getContainer())
      processPayment = await watchProcessPayment(getContainer())
      before = await paymentState(getContainer())
    })
    afterEach(async () => {
      // Nothing may still be in flight when the next test's database restore starts.
      await pipeline.drain()
      pipeline.stop()
      await processPayment.stop()
    })

    const state = () => paymentState(getContainer() as MedusaContainer)

    /** Everything a notification could name: the canary first, suffixed attempts, unknown ids. */
    function allTargets(): Targets {
      return {
        orderIds: [ids.canary, `${ids.canary}-2`, ids.pending, ids.paid, "payses_01UNKNOWNUNKNOWNUNKNOWN00", "", "payses_"],
      }
    }

    it("has its fixtures: PayLater says paid for the canary, Medusa has no order for it yet", async () => {
      expect(paylater().order(ids.canary)!.status).toBe(2)
      expect(paylater().order(ids.pending)!.status).toBe(1)
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 0, payments: 0 })
      expect(await ledgerForCart(getContainer(), ids.paidCart)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
      // The keys are right: a genuine notification for an order nobody knows is accepted.
      const genuine = signedEntries(
        { merchantId: keys.merchantId, orderId: "payses_01NOBODYKNOWSTHISONE000", status: "success", timestamp: Date.now() },
        keys.secret
      )
      expectAccepted(await rawPost(base, PLUGIN_ROUTE, { body: utf8(serialise(genuine)), contentType: "application/json" }), "control")
    })

    it(`refuses ${RUNS.forgeries} forged or tampered notifications with 403 JSON and changes nothing`, async () => {
      const seen = new Map<string, number>()
      await fc.assert(
        fc.asyncProperty(forgery(keys, allTargets()), fc.constantFrom("application/json", "application/json; charset=utf-8"), async (f, ct) => {
          seen.set(f.kind, (seen.get(f.kind) ?? 0) + 1)
          const res = await rawPost(base, PLUGIN_ROUTE, { body: utf8(serialise(f.entries)), contentType: ct })
          expectRefused(res, `forgery "${f.kind}"`)
          expectNoPollution()
        }),
        { seed: SEED, numRuns: RUNS.forgeries }
      )
      // Every kind of forgery was really tried.
      expect(seen.size).toBe(16)

      // A refused notification never reaches Medusa's pipeline, so there is nothing to wait for.
      expect(pipeline.emitted()).toBe(0)
      expect(processPayment.finished()).toBe(0)
      expect(await state()).toEqual(before)
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 0, payments: 0 })
    })

    it(`refuses ${RUNS.garbage} non-notifications (other JSON, broken, binary, empty, huge, any content type) with 403 JSON`, async () => {
      const seen = new Map<string, number>()
      let overLimit = 0
      await fc.assert(
        fc.asyncProperty(garbage(keys, allTargets()), async (g) => {
          seen.set(g.kind, (seen.get(g.kind) ?? 0) + 1)
          if (g.request.body.length > 64 * 1024) overLimit += 1
          const res = await rawPost(base, PLUGIN_ROUTE, g.request)
          expectRefused(res, `${g.kind} (${g.request.body.length} bytes, content-type ${JSON.stringify(g.request.contentType)})`)
          expectNoPollution()
        }),
        { seed: SEED + 1, numRuns: RUNS.garbage }
      )
      expect([...seen.keys()]).toEqual(expect.arrayContaining(["empty", "broken", "binary", "proto", "deep", "huge-extra", "utf16"]))
      // Bodies past the route's 64 KiB limit were among them, and still got their 403 JSON.
      expect(overLimit).toBeGreaterThan(0)

      expect(pipeline.emitted()).toBe(0)
      expect(processPayment.finished()).toBe(0)
      expect(await state()).toEqual(before)
    })

    it(`accepts ${RUNS.harmless} harmless variations of genuine notifications (digest case, extra and prototype keys) and changes nothing`, async () => {
      const harmless = fc.oneof(
        // Known sessions, statuses Medusa's pipeline skips.
        notification(keys, { orderIds: [ids.canary, ids.pending, ids.paid] }, ["failed", "pending"]),
        // The paid session again: a repeat of what already happened.
        notification(keys, { orderIds: [ids.paid, `${ids.paid}-2`] }, ["success"]),
        // Orders this store does not know.
        notification(keys, { orderIds: ["payses_01UNKNOWNUNKNOWNUNKNOWN00", "cart_01OTHERSTORE", "١٢٣"] }, ["success", "failed", "pending"]),
        // The canary spelled in other case: the hash is over upper case, so PayLater's signature
        // covers it, but it must never address the canary's session.
        fc
          .tuple(notification(keys, { orderIds: [ids.canary] }, ["success"]), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
          .map(([n, mask]) => ({ ...n, orderId: flipCase(n.orderId, mask) }))
      )
      let accepted = 0
      await fc.assert(
        fc.asyncProperty(harmlessVariation(keys, harmless), async (v) => {
          const res = await rawPost(base, PLUGIN_ROUTE, { body: utf8(serialise(v.entries)), contentType: v.contentType })
          expectAccepted(res, `${v.n.status} for ${v.n.orderId}`)
          accepted += 1
          expectNoPollution()
        }),
        { seed: SEED + 2, numRuns: RUNS.harmless }
      )
      expect(accepted).toBe(RUNS.harmless)

      // Known sessions were handed to Medusa's pipeline: wait for all of it, then compare.
      expect(pipeline.emitted()).toBeGreaterThan(0)
      await pipeline.drain()
      expect(processPayment.failed()).toBe(0)
      expect(await state()).toEqual(before)
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 0, payments: 0 })
      expect(await ledgerForCart(getContainer(), ids.paidCart)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    })

    it(`places the canary's order once, then ${RUNS.replays} replays and late notifications change nothing`, async () => {
      const first = signedEntries(
        { merchantId: keys.merchantId, orderId: ids.canary, paylaterRef: "PL1746499849330726", status: "success", timestamp: Date.now() },
        keys.secret
      )
      const firstBody = utf8(serialise(first))
      expectAccepted(await rawPost(base, PLUGIN_ROUTE, { body: firstBody, contentType: "application/json" }), "first delivery")
      await pipeline.drain()
      const placed = await state()
      expect(placed).toMatchObject({ orders: before.orders + 1, payments: before.payments + 1, captures: before.captures + 1 })
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 1, payments: 1, captures: 1 })

      const replay = fc.oneof(
        // The very same bytes again (PayLater's retry).
        fc.constant({ what: "same bytes", body: firstBody }),
        // Re-sent later, in any status, with harmless variations.
        harmlessVariation(keys, notification(keys, { orderIds: [ids.canary, `${ids.canary}-2`] }, ["success", "success", "failed", "pending"])).map(
          (v) => ({ what: `${v.n.status} at ${v.n.timestamp}`, body: utf8(serialise(v.entries)) })
        )
      )
      await fc.assert(
        fc.asyncProperty(replay, async (r) => {
          expectAccepted(await rawPost(base, PLUGIN_ROUTE, { body: r.body, contentType: "application/json" }), r.what)
        }),
        { seed: SEED + 3, numRuns: RUNS.replays }
      )
      await pipeline.drain()
      expect(await state()).toEqual(placed)
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    })

    it("refuses the sandbox's own forged and tampered deliveries", async () => {
      paylater().setWebhookUrl(new URL(PLUGIN_ROUTE, base).toString())
      try {
        for (const status of ["success", "failed", "pending"] as const) {
          const forged = await paylater().sendWebhook({ orderId: ids.canary, status, forged: true })
          expect(forged.responseStatus).toBe(403)
          expect(JSON.parse(forged.responseBody!)).toEqual({ message: expect.stringMatching(/signature/i) })
        }
        // Signed as "failed", delivered as "success".
        const tampered = await paylater().sendWebhook({ orderId: ids.canary, status: "failed", body: { status: "success" } })
        expect(tampered.responseStatus).toBe(403)
        expect(JSON.parse(tampered.responseBody!).message).toMatch(/txHash/)
      } finally {
        paylater().setWebhookUrl(null)
      }
      expect(pipeline.emitted()).toBe(0)
      expect(await state()).toEqual(before)
    })

    describe("members named like Object.prototype's own (found by the properties above)", () => {
      const forgedWith = (extra: [string, unknown]) =>
        serialise([
          ...signedEntries(
            { merchantId: keys.merchantId, orderId: ids.canary, status: "success", timestamp: Date.now() },
            `not-${keys.secret}`
          ),
          extra,
        ])

      it.each([
        ["a top-level hasOwnProperty member", ["hasOwnProperty", 1]],
        ["a nested hasOwnProperty member", ["meta", { hasOwnProperty: "x" }]],
      ] as const)("refuses a forged notification with %s with 403, not 500", async (_what, extra) => {
        const res = await rawPost(base, PLUGIN_ROUTE, { body: utf8(forgedWith([extra[0], extra[1]])), contentType: "application/json" })
        expectRefused(res, "forged notification with a hasOwnProperty member")
        expect(pipeline.emitted()).toBe(0)
        expect(await state()).toEqual(before)
      })

      it("does not verify a notification hidden under an own __proto__ member", async () => {
        // JSON.parse keeps "__proto__" as an ordinary own member: the top-level object has none of
        // the notification's fields and is no notification. (A replay of the genuine one is a
        // different matter; this is about verifying the object that was received.)
        const genuine = Object.fromEntries(
          signedEntries({ merchantId: keys.merchantId, orderId: ids.canary, status: "success", timestamp: Date.now() }, keys.secret)
        )
        const body = serialise([["note", "any other member"], ["__proto__", genuine]])
        const res = await rawPost(base, PLUGIN_ROUTE, { body: utf8(body), contentType: "application/json" })
        await pipeline.drain()
        // One comparison, so a failure shows both the answer and what it did to the canary's cart.
        const canary = await ledgerForCart(getContainer(), ids.canaryCart)
        expect({ status: res.status, message: refusalMessage(res), orders: canary.orders, payments: canary.payments }).toEqual({
          status: 403,
          message: expect.any(String),
          orders: 0,
          payments: 0,
        })
        expect(await state()).toEqual(before)
      })
    })

    it(`Medusa's own ${CORE_ROUTE} never answers 5xx and the provider refuses ${RUNS.coreRoute} hostile bodies there`, async () => {
      const hostile = fc.oneof(
        { weight: 2, arbitrary: forgery(keys, allTargets()).map((f) => ({ what: f.kind, body: utf8(serialise(f.entries)), contentType: "application/json" as string | null })) },
        {
          weight: 1,
          arbitrary: garbage(keys, allTargets())
            // body-parser decodes UTF-16 JSON, so there that one is a genuine notification.
            .filter((g) => g.kind !== "utf16")
            .map((g) => ({ what: g.kind, body: g.request.body, contentType: g.request.contentType })),
        }
      )
      const statuses = new Map<number, number>()
      await fc.assert(
        fc.asyncProperty(hostile, async (h) => {
          const res = await rawPost(base, CORE_ROUTE, { body: h.body, contentType: h.contentType })
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
          if (res.status >= 500) throw new Error(`${h.what}: ${describeResponse(res)}`)
          expectNoPollution()
        }),
        { seed: SEED + 4, numRuns: RUNS.coreRoute }
      )
      // The route accepted most of them (it answers 200 to anything it can parse) ...
      expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS.coreRoute / 2)
      expect(pipeline.emitted()).toBe(statuses.get(200))
      // ... so the refusal happens later, in the provider: wait until Medusa's subscriber has
      // handled every one of them, then nothing may have moved.
      await pipeline.drain()
      expect(pipeline.handled()).toBe(pipeline.emitted())
      expect(processPayment.finished()).toBe(0)
      expect(await state()).toEqual(before)
      expect(await ledgerForCart(getContainer(), ids.canaryCart)).toMatchObject({ orders: 0, payments: 0 })
    })
  },
})

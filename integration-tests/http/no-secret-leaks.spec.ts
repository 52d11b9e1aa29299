/**
 * No secret leaks: across every scenario (paid, declined, refunded, forged webhook, refused
 * credentials, PayLater failing or hanging, Request to Pay), nothing the app logs, stores or answers
 * contains the client secret, the webhook secret, a bearer token PayLater issued, an Authorization
 * header, or the shopper's full mobile number.
 *
 * The secrets are distinctive (`cs_LEAKCHECK_…`, `whsec_LEAKCHECK_…`, random per run) so a match
 * cannot be an accident; the bearer tokens are read off the wire by a pass-through proxy between
 * the app and the PayLater sandbox. A self-check proves each capture sees what it should.
 */
import { randomBytes } from "node:crypto"
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { logger as medusaLogger } from "@medusajs/framework/logger"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { AxiosResponse } from "axios"
import { useSandbox } from "../helpers/sandbox"
import {
  captureOutput,
  databaseRowsContaining,
  findLeaks,
  startTokenTap,
  type OutputCapture,
  type Secret,
  type TokenTap,
} from "../helpers/leak-capture"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } from "../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../helpers/store-client"
import { watchWebhookPipeline, type WebhookPipelineWatch } from "../helpers/webhook-pipeline"
import { eventually, ledgerForCart } from "./paylater-link/ledger"
import { decideOnLink, followToApp } from "./paylater-link/shopper"
import { orderWithOutstandingAmount, requestToPayApi } from "./paylater-rtp/point-of-sale"

jest.setTimeout(180_000)

const CLIENT_SECRET = `cs_LEAKCHECK_${randomBytes(12).toString("hex")}`
const WEBHOOK_SECRET = `whsec_LEAKCHECK_${randomBytes(12).toString("hex")}`
const SHOPPER_MOBILE = "97451118021"
/** The number in every form a storefront or a log line could write it. */
const MOBILE = /51118021|5111 8021|5111-8021/

// medusa-config.ts reads these when the runner loads it (in its beforeAll, after this one); the
// sandbox is started with the same ones. All restored for the next spec file in this process.
const ENV = { PAYLATER_CLIENT_SECRET: CLIENT_SECRET, PAYLATER_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYLATER_TIMEOUT_MS: "1500" }
const previousEnv: Record<string, string | undefined> = {}
beforeAll(() => {
  for (const [k, v] of Object.entries(ENV)) {
    previousEnv[k] = process.env[k]
    process.env[k] = v
  }
})
afterAll(() => {
  for (const [k, v] of Object.entries(previousEnv)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
})

const paylater = useSandbox({ clientSecret: CLIENT_SECRET, webhookSecret: WEBHOOK_SECRET })

// The app talks to the sandbox through the tap, which notes every token the sandbox issues.
let tap: TokenTap
let sandboxBaseUrl: string | undefined
beforeAll(async () => {
  tap = await startTokenTap(paylater.url())
  sandboxBaseUrl = process.env.PAYLATER_API_BASE_URL
  process.env.PAYLATER_API_BASE_URL = tap.url
})
afterAll(async () => {
  if (process.env.PAYLATER_API_BASE_URL === tap.url) process.env.PAYLATER_API_BASE_URL = sandboxBaseUrl
  await tap.stop()
})

// Everything written from before the app boots until the file ends.
let output: OutputCapture
beforeAll(() => {
  output = captureOutput([
    [medusaLogger, "logger"],
    [console, "console"],
  ])
})
afterAll(() => output.restore())

function secrets(): Secret[] {
  return [
    { name: "client secret", value: CLIENT_SECRET },
    { name: "webhook secret", value: WEBHOOK_SECRET },
    ...tap.tokens().map((t, i) => ({ name: `token #${i + 1} issued by PayLater`, value: t })),
    ...tap.authorizations().map((a, i) => ({ name: `Authorization header value #${i + 1}`, value: a })),
    { name: "shopper's full mobile number", value: MOBILE },
  ]
}

/** What a leak looks like in a failure message: where, which secret, and the offending text. */
function leaksIn(where: string, texts: string[]): string[] {
  // Search everything at once; only the secrets found are traced back to their lines.
  const present = secrets().filter((s) => findLeaks(texts.join("\n"), [s]).length > 0)
  return texts.flatMap((text) => findLeaks(text, present).map((name) => `${where}: ${name} in ${text.slice(0, 500)}`))
}

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
    let admin: AdminAuth
    let rtpRegistered = false
    /** Every answer the app gave the storefront and the admin (status, path, body, Location). */
    const answers: string[] = []
    /** Every payment session and cart id the scenarios made: keys to a cart and its order. */
    const keys = new Set<string>()

    beforeAll(async () => {
      // In case the container holds another logger object than the one imported above.
      output.patch(getContainer().resolve(ContainerRegistrationKeys.LOGGER) as object, "container-logger")
      admin = await createAdminUser(api, getContainer())
      rtpRegistered = seed.regionPaymentProviders.includes(PAYLATER_RTP_PROVIDER_ID)
      const record = (res: AxiosResponse) => {
        answers.push(
          `${res.status} ${res.config.method?.toUpperCase()} ${res.config.url} ${JSON.stringify(res.data)} ${res.headers?.location ?? ""}`
        )
        return res
      }
      api.interceptors.response.use(record, (error: { response?: AxiosResponse; config?: { url?: string }; message?: string }) => {
        if (error?.response) record(error.response)
        else answers.push(`network error ${error?.config?.url}: ${error?.message}`)
        return Promise.reject(error)
      })
    })

    let pipeline: WebhookPipelineWatch
    let firstAnswer = 0
    let firstLine = 0
    beforeEach(() => {
      pipeline = watchWebhookPipeline(getContainer())
      firstAnswer = answers.length
      firstLine = output.lines().length
    })
    afterEach(async () => {
      await pipeline.drain()
      pipeline.stop()
      // The runner restores the database before the next test: note this one's keys while they exist.
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as {
        raw(sql: string): Promise<{ rows: Array<{ id: string }> }>
      }
      for (const table of ["payment_session", "cart"]) {
        for (const row of (await pg.raw(`select id from ${table}`)).rows) keys.add(row.id)
      }
    })

    /**
     * The scenario's own evidence: log lines and answers since it started, every payment session
     * and payment in the database (and every other table), and the admin's view of `orderIds`.
     */
    async function expectNoLeaks(orderIds: string[] = []): Promise<void> {
      await pipeline.drain()
      for (const id of orderIds) {
        await api.get(
          `/admin/orders/${id}?fields=*payment_collections,*payment_collections.payments,*payment_collections.payment_sessions,*payment_collections.payments.refunds`,
          admin
        )
        await api.get(`/admin/paylater/orders/${id}/request-to-pay`, { ...admin, validateStatus: () => true })
      }
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as {
        raw(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>
      }
      const sessions = (await pg.raw(`select id, data, context, metadata from payment_session`)).rows
      const payments = (await pg.raw(`select id, data, metadata from payment`)).rows
      const found = [
        ...leaksIn("log", output.lines().slice(firstLine)),
        ...leaksIn("answer", answers.slice(firstAnswer)),
        ...leaksIn("payment session", sessions.map((r) => JSON.stringify(r))),
        ...leaksIn("payment", payments.map((r) => JSON.stringify(r))),
        ...leaksIn(
          "sandbox delivery answer",
          paylater()
            .deliveries()
            .map((d) => `${d.responseStatus} ${d.responseBody ?? ""}`)
        ),
      ]
      expect(found).toEqual([])
      expect(await databaseRowsContaining(getContainer(), secrets())).toEqual({})
    }

    async function linkCheckout() {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) {
        throw new Error(`session not created: ${JSON.stringify(started.session)}`)
      }
      const session = started.session.data.session
      return { cart: started.cart, session, data: session.data as Record<string, string> }
    }

    async function paid() {
      const c = await linkCheckout()
      const back = await followToApp(api, await decideOnLink(c.data.payment_link_url, "approve"))
      const l = await ledgerForCart(getContainer(), c.cart.id)
      if (!l.orderId) throw new Error(`no order after paying: ${JSON.stringify(back)}`)
      return { ...c, orderId: l.orderId }
    }

    it("self-check: each capture sees what it should", async () => {
      const marker = `LEAKCHECK-CANARY-${randomBytes(4).toString("hex")}`
      getContainer().resolve(ContainerRegistrationKeys.LOGGER).info(`${marker} via the container's logger`)
      process.stderr.write(`${marker} via stderr\n`)
      expect(output.lines().some((l) => l.includes(`${marker} via the container's logger`))).toBe(true)
      expect(output.lines().some((l) => l.includes(`${marker} via stderr`))).toBe(true)

      // The plugin's own log lines are among them (a forged webhook is logged as refused) ...
      const forged = await paylater().sendWebhook({ orderId: "payses_01SELFCHECK", status: "success", forged: true })
      expect(forged.responseStatus).toBe(403)
      expect(output.lines().slice(firstLine).some((l) => /PayLater webhook refused/.test(l))).toBe(true)

      // ... the tap sees tokens and the Authorization headers carrying them ...
      const c = await linkCheckout()
      expect(tap.tokens().length).toBeGreaterThan(0)
      expect(tap.tokens().some((t) => tap.authorizations().includes(`Bearer ${t}`))).toBe(true)
      // ... the answers are recorded ...
      expect(answers.slice(firstAnswer).some((a) => a.includes(c.data.payment_link_url))).toBe(true)
      // ... and the scanners find what is there.
      expect(findLeaks(`x ${CLIENT_SECRET} y`, secrets())).toEqual(["client secret"])
      expect(findLeaks(`call 5111 8021`, secrets())).toEqual(["shopper's full mobile number"])
      expect(await databaseRowsContaining(getContainer(), [{ name: "session id", value: c.session.id }])).toMatchObject({
        payment_session: 1,
      })
      // The app really runs with the distinctive secrets: PayLater (the sandbox) accepted them.
      expect(paylater().options.clientSecret).toBe(CLIENT_SECRET)
      expect(paylater().order(c.session.id)).toBeDefined()
      await expectNoLeaks()
    })

    it("paid link checkout (return route and webhook)", async () => {
      const { orderId, session } = await paid()
      await eventually(
        async () => paylater().deliveries(),
        (d) => d.some((x) => x.orderId === session.id && x.outcome === "delivered")
      )
      await store.get(`/store/paylater/payment-sessions/${session.id}`)
      await expectNoLeaks([orderId])
    })

    it("declined and abandoned link checkouts", async () => {
      const declined = await linkCheckout()
      await followToApp(api, await decideOnLink(declined.data.payment_link_url, "decline"))
      const abandoned = await linkCheckout()
      await followToApp(api, await decideOnLink(abandoned.data.payment_link_url, "abandon"))
      const completeDeclined = await store.completeCart(declined.cart.id)
      expect(completeDeclined.type).not.toBe("order")
      await expectNoLeaks()
    })

    it("refunds through the admin API, refused and accepted", async () => {
      paylater().setWebhookUrl(null)
      const { orderId, session } = await paid()
      const payments = (await api.get(`/admin/orders/${orderId}?fields=*payment_collections.payments`, admin)).data.order
        .payment_collections[0].payments
      const refund = (amount: number) =>
        api.post(`/admin/payments/${payments[0].id}/refund`, { amount }, { ...admin, validateStatus: () => true })
      expect((await refund(50)).status).toBe(400)
      paylater().advanceClock(11 * 60_000)
      paylater().fault({ endpoint: "refund", mode: "error", status: 500 })
      expect((await refund(50)).status).toBeGreaterThanOrEqual(400)
      // A 500 does not say whether the refund was paid out: refused until someone records it.
      expect((await refund(50)).status).toBe(400)
      const { attention } = (await api.get("/admin/paylater/attention", admin)).data
      const resolved = await api.post(`/admin/paylater/attention/${attention[0].id}/resolve`, { resolution: "not_refunded" }, admin)
      expect(resolved.status).toBe(200)
      expect((await refund(50)).status).toBe(200)
      expect(paylater().order(session.id)!.refunds).toHaveLength(1)
      await expectNoLeaks([orderId])
    })

    it("forged and tampered webhooks at both routes", async () => {
      const c = await linkCheckout()
      await paylater().approveLink(c.session.id)
      await eventually(async () => ledgerForCart(getContainer(), c.cart.id), (l) => l.orders === 1)
      const forged = await paylater().sendWebhook({ orderId: c.session.id, status: "success", forged: true })
      expect(forged.responseStatus).toBe(403)
      const tampered = await paylater().sendWebhook({ orderId: c.session.id, status: "failed", body: { status: "success" } })
      expect(tampered.responseStatus).toBe(403)
      paylater().setWebhookUrl(new URL("/hooks/payment/paylater_paylater", api.defaults.baseURL).toString())
      await paylater().sendWebhook({ orderId: c.session.id, status: "success", forged: true })
      await paylater().sendWebhook({ orderId: c.session.id, status: "failed", body: { status: "success" } })
      await pipeline.drain()
      const { orderId } = await ledgerForCart(getContainer(), c.cart.id)
      await expectNoLeaks([orderId!])
    })

    it("PayLater refuses the client id/secret", async () => {
      const real = paylater().options.clientSecret
      // PayLater no longer knows the secret the app holds (and sends).
      paylater().options.clientSecret = `rotated-${randomBytes(6).toString("hex")}`
      try {
        const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
        const pc = await store.createPaymentCollection(cart.id)
        const r = await store.createPaymentSession(pc.id, PAYLATER_PROVIDER_ID)
        expect(r.ok).toBe(false)
        expect(paylater().requests().some((q) => q.endpoint === "token" && q.status === 401)).toBe(true)
      } finally {
        paylater().options.clientSecret = real
      }
      await expectNoLeaks()
    })

    it("PayLater failing: 5xx, HTML error pages, garbage and timeouts", async () => {
      const attempt = async () => {
        const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
        const pc = await store.createPaymentCollection(cart.id)
        return store.createPaymentSession(pc.id, PAYLATER_PROVIDER_ID)
      }
      paylater().fault({ endpoint: "link", mode: "error", status: 500, count: 2 })
      expect((await attempt()).ok).toBe(false)
      paylater().fault({ endpoint: "link", mode: "error", status: 503, count: 2 })
      expect((await attempt()).ok).toBe(false)
      paylater().fault({ endpoint: "link", mode: "garbage", count: 2 })
      expect((await attempt()).ok).toBe(false)
      paylater().fault({ endpoint: "link", mode: "timeout", count: 2 })
      expect((await attempt()).ok).toBe(false)
      // The app's token expires on PayLater's clock, so it must fetch one, and that call hangs.
      paylater().advanceClock(10 * 60_000)
      paylater().fault({ endpoint: "token", mode: "timeout", count: 5 })
      expect((await attempt()).ok).toBe(false)
      paylater().clearFaults()

      // The shopper comes back while the status operation is failing.
      const c = await linkCheckout()
      const location = await decideOnLink(c.data.payment_link_url, "approve")
      paylater().fault({ endpoint: "status", mode: "error", status: 502, count: 10 })
      await followToApp(api, location)
      paylater().fault({ endpoint: "status", mode: "timeout", count: 10 })
      await followToApp(api, location)
      paylater().clearFaults()
      await expectNoLeaks()
    })

    it("Request to Pay with the shopper's mobile number (when the provider is registered)", async () => {
      if (!rtpRegistered) {
        // Nothing to check on an app without the Request to Pay provider.
        expect(seed.regionPaymentProviders).not.toContain(PAYLATER_RTP_PROVIDER_ID)
        return
      }
      // Storefront: the number as a shopper types it.
      const started = await startCheckout(
        store,
        { regionId: seed.regionId, variantId: seed.variants.standard.id },
        PAYLATER_RTP_PROVIDER_ID,
        { mobile_number: "5111 8021" }
      )
      if (!started.session.ok || !started.session.data.session) throw new Error(JSON.stringify(started.session))
      const session = started.session.data.session
      expect(paylater().order(session.id)!.rtp!.mobileNumber).toBe(SHOPPER_MOBILE)
      await store.get(`/store/paylater/payment-sessions/${session.id}`)
      await paylater().approveRequest(session.id)
      const l = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (v) => v.orders === 1)
      await store.get(`/store/paylater/payment-sessions/${session.id}`)

      // Refused pushes: PayLater unavailable, and a number that is not a Qatari mobile.
      const refused = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_RTP_PROVIDER_ID)
      paylater().fault({ endpoint: "rtp", mode: "error", status: 404, count: 2 })
      await store.createPaymentSession(refused.paymentCollection.id, PAYLATER_RTP_PROVIDER_ID, { mobile_number: `+${SHOPPER_MOBILE}` })
      paylater().clearFaults()
      await store.createPaymentSession(refused.paymentCollection.id, PAYLATER_RTP_PROVIDER_ID, { mobile_number: `${SHOPPER_MOBILE}9` })

      // Admin (point of sale): a request for an order with an outstanding amount.
      const orderId = await orderWithOutstandingAmount(api, admin, seed)
      const pos = requestToPayApi(api, admin, orderId)
      await pos.send(SHOPPER_MOBILE)
      await pos.state()
      await expectNoLeaks([l.orderId!, orderId])
    })

    it("no payment session or cart id appears whole in a log line at info level or above", () => {
      expect([...keys].filter((id) => id.startsWith("payses_")).length).toBeGreaterThan(5)
      // Debug lines may name them (LOG_LEVEL=debug is for a developer); info, warn and error may not.
      // Raw stdout/stderr carry the same lines as the logger calls, plus Medusa's http-level access log.
      const shown = output.lines().filter((line) => /^\[(logger|container-logger|console)\.(info|warn|error|log|panic|failure|success|activity|progress)\]/.test(line))
      expect(shown.length).toBeGreaterThan(50)
      const found = shown.flatMap((line) => [...keys].filter((id) => line.includes(id)).map((id) => `${id} in ${line.slice(0, 300)}`))
      expect(found).toEqual([])
    })

    it("nothing logged during the whole file holds a secret", () => {
      expect(leaksIn("log", output.lines())).toEqual([])
      // The capture ran the whole time: the boot and every scenario wrote through it.
      expect(output.lines().length).toBeGreaterThan(50)
    })
  },
})

/**
 * What a stranger with the publishable key can make PayLater do, over Medusa's real HTTP API against
 * the PayLater sandbox, with the default limits (integration-tests/setup.js raises them for every
 * other spec) except a store-wide ceiling and a client budget small enough to reach:
 * - a Request to Pay goes out only for a number PayLater matches with the cart's own email: a
 *   stranger's cart (any spelling of the victim's number, even with the victim's email in the
 *   request's data) gets the one "not eligible" answer, pushes nothing and spends nothing of the
 *   victim's budget, whose own pushes then go out; a cart without an email gets "add your email";
 *   with the look-up down nothing is pushed (503, use the link);
 * - a number's 4th push within 10 minutes is 429; a cart's 6th Request to Pay start (failed
 *   look-ups included) and 11th link likewise; a client's start past its budget (lowered to 5 here;
 *   the default 20 in 10 minutes is proven in budgets.spec.ts) is 429 while
 *   another client (another X-Forwarded-For address, one proxy hop trusted by default) is served;
 *   the store-wide ceiling per minute refuses every client;
 * - a refund of more than two decimals is refused through the admin refund route, never rounded;
 * - without merchantId, Settings → PayLater says webhooks are not checked for the merchant.
 *
 * The budgets live in Medusa's PostgreSQL (no REDIS_URL here), which the runner restores before each
 * test: every test starts with fresh budgets. Each test still speaks from its own client address.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import { Modules } from "@medusajs/framework/utils"
import { SHOPPER_MESSAGES } from "../../../src/storefront/messages"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { ledgerForCart } from "../paylater-link/ledger"
import { decideOnLink, followToApp } from "../paylater-link/shopper"

const STORE_CEILING = 30
const CLIENT_LIMIT = 5

/**
 * This suite's environment at boot (limits-app.spec.ts): the defaults (medusa-config.ts reads blank
 * as unset) but a reachable store-wide ceiling and client budget, and no merchant id for the
 * Settings check.
 */
export const LIMITS_ENV = {
  PAYLATER_RTP_LIMIT_PER_MOBILE: "",
  PAYLATER_RTP_LIMIT_PER_CART: "",
  PAYLATER_LINK_LIMIT_PER_CART: "",
  // The client budget's default (20 in 10 minutes) is proven in budgets.spec.ts; 5 here spares 15 checkouts.
  PAYLATER_START_LIMIT_PER_CLIENT: String(CLIENT_LIMIT),
  PAYLATER_START_LIMIT_PER_MINUTE: String(STORE_CEILING),
  PAYLATER_TRUSTED_PROXY_HOPS: "",
  PAYLATER_MERCHANT_ID: "",
}

const MINUTE = 60_000

const TOO_MANY = { type: "not_allowed", code: "paylater_too_many_requests", message: SHOPPER_MESSAGES.too_many_requests.en }
const NOT_ELIGIBLE = { type: "not_allowed", code: "paylater_not_eligible", message: SHOPPER_MESSAGES.not_eligible.en }
const VICTIM = { mobile: "+974 5111 8022", email: "shopper2@sandbox.paylater.test" }

let nextClient = 1
/** A client address of its own for each caller (TEST-NET-3), sent as the one trusted proxy would. */
const newClient = () => `203.0.113.${nextClient++}`

export function limits({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  const keep = { validateStatus: () => true }

  // A 401 is the sandbox refusing a token from before its per-test reset; the client fetches a new one and repeats.
  const sent = (endpoint: string) => paylater().requests().filter((r) => r.endpoint === endpoint && r.status !== 401).length

  const newCollection = async (email: string | null = "stranger@example.com") => {
    const cart =
      email === null
        ? (
            await api.post(
              "/store/carts",
              { region_id: seed.regionId, items: [{ variant_id: seed.variants.standard.id, quantity: 1 }] },
              { headers: store.headers }
            )
          ).data.cart
        : await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id, email })
    return { cartId: cart.id as string, collectionId: (await store.createPaymentCollection(cart.id)).id }
  }
  const startSession = (collectionId: string, providerId: string, data: Record<string, unknown> | undefined, client: string) =>
    api.post(
      `/store/payment-collections/${collectionId}/payment-sessions`,
      data ? { provider_id: providerId, data } : { provider_id: providerId },
      { headers: { ...store.headers, "x-forwarded-for": client }, ...keep }
    )

  describe("Request to Pay only for the cart's own shopper", () => {
    it("a stranger's three spellings of the victim's number get 'not eligible' and push nothing; the victim's own pushes then go out, 3 of them", async () => {
      const stranger = newClient()
      for (const mobile of ["+974 5111 8022", "51118022", "97451118022"]) {
        // The victim's email in the request's data changes nothing: the cart's own email is looked up.
        const refused = await startSession((await newCollection()).collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: mobile, email: VICTIM.email }, stranger)
        expect(refused.status).toBe(400)
        expect(refused.data).toEqual(NOT_ELIGIBLE)
      }
      expect([sent("shopper"), sent("rtp")]).toEqual([3, 0])
      const asked = paylater().requests().filter((r) => r.endpoint === "shopper")
      expect(asked.every((r) => r.query.email === "stranger@example.com")).toBe(true)

      // The victim's budget was not touched: their three pushes go out, the fourth is 429.
      const victim = newClient()
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) {
        statuses.push((await startSession((await newCollection(VICTIM.email)).collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: VICTIM.mobile }, victim)).status)
      }
      expect(statuses).toEqual([200, 200, 200])
      expect(sent("rtp")).toBe(3)
      const fourth = await startSession((await newCollection(VICTIM.email)).collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: "51118022" }, victim)
      expect(fourth.status).toBe(429)
      expect(fourth.data).toEqual(TOO_MANY)
      const retryAfter = Number(fourth.headers["retry-after"])
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(600)
      expect(sent("rtp")).toBe(3)
    })

    it("a cart without an email gets 'add your email': no look-up, no push", async () => {
      const { collectionId } = await newCollection(null)
      const refused = await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: VICTIM.mobile, email: VICTIM.email }, newClient())
      expect(refused.status).toBe(400)
      expect(refused.data).toEqual({ type: "invalid_data", code: "paylater_email_required", message: SHOPPER_MESSAGES.email_required.en })
      expect([sent("shopper"), sent("rtp")]).toEqual([0, 0])
    })

    it("with the look-up down nothing is pushed: 503 and the shopper is offered the link", async () => {
      paylater().fault({ endpoint: "shopper", mode: "error", status: 500, count: 10 })
      const { collectionId } = await newCollection(VICTIM.email)
      const refused = await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: VICTIM.mobile }, newClient())
      expect(refused.status).toBe(503)
      expect(refused.data).toEqual({ type: "unexpected_state", code: "paylater_lookup_unavailable", message: SHOPPER_MESSAGES.lookup_unavailable.en })
      expect(sent("rtp")).toBe(0)
      // The link still works for the same cart.
      expect((await startSession(collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())).status).toBe(200)
    })
  })

  describe("per cart", () => {
    it("a cart's 6th Request to Pay start within the hour gets 429, failed look-ups included, and nothing is sent", async () => {
      const { collectionId } = await newCollection()
      const numbers = ["51118021", "51118023", "51118024", "33000101", "33000102", "33000103"]
      const statuses: number[] = []
      // Each from a client of its own: the cart's budget is what refuses, never a client's.
      for (const n of numbers.slice(0, 5)) statuses.push((await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: n }, newClient())).status)
      // The stranger's cart matches none of them: each look-up refuses, and each spent the cart's budget.
      expect(statuses).toEqual([400, 400, 400, 400, 400])
      expect([sent("shopper"), sent("rtp")]).toEqual([5, 0])

      const sixth = await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: numbers[5] }, newClient())
      expect(sixth.status).toBe(429)
      expect(sixth.data).toEqual(TOO_MANY)
      expect(sent("shopper")).toBe(5)
    })

    it("a cart's 11th payment link within the hour gets 429 and PayLater creates 10", async () => {
      const { collectionId } = await newCollection()
      const statuses: number[] = []
      // Each from a client of its own: the cart's budget is what refuses, never a client's.
      for (let i = 0; i < 10; i++) statuses.push((await startSession(collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())).status)
      expect(statuses).toEqual(Array(10).fill(200))
      expect(sent("link")).toBeGreaterThanOrEqual(10)

      const before = sent("link")
      const eleventh = await startSession(collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())
      expect(eleventh.status).toBe(429)
      expect(eleventh.data).toEqual(TOO_MANY)
      expect(sent("link")).toBe(before)
    })
  })

  describe("per client and store-wide", () => {
    it(`a client's start past its budget (${CLIENT_LIMIT} in 10 minutes here) gets 429, from fresh carts; another client is served`, async () => {
      const client = newClient()
      const statuses: number[] = []
      for (let i = 0; i < CLIENT_LIMIT; i++) statuses.push((await startSession((await newCollection()).collectionId, PAYLATER_PROVIDER_ID, undefined, client)).status)
      expect(statuses).toEqual(Array(CLIENT_LIMIT).fill(200))
      const before = sent("link")

      const refused = await startSession((await newCollection()).collectionId, PAYLATER_PROVIDER_ID, undefined, client)
      expect(refused.status).toBe(429)
      expect(refused.data).toEqual(TOO_MANY)
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(600)
      // What the client writes left of the trusted proxy's entry is not believed.
      const spoofed = await startSession((await newCollection()).collectionId, PAYLATER_PROVIDER_ID, undefined, `198.51.100.77, ${client}`)
      expect(spoofed.status).toBe(429)
      expect(sent("link")).toBe(before)

      expect((await startSession((await newCollection()).collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())).status).toBe(200)
    })

    it(`the store-wide ceiling (${STORE_CEILING} per minute here) refuses every client once reached`, async () => {
      // Carts without an email, made first: each start spends the ceiling and is then refused at
      // once ("add your email"), so the starts take a few seconds of the ceiling's minute and no PayLater call.
      const collections = await Promise.all(Array.from({ length: STORE_CEILING + 1 }, () => newCollection(null)))
      const statuses: number[] = []
      for (const { collectionId } of collections.slice(0, STORE_CEILING)) {
        statuses.push((await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: VICTIM.mobile }, newClient())).status)
      }
      expect(statuses).toEqual(Array(STORE_CEILING).fill(400))
      const refused = await startSession(collections[STORE_CEILING].collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())
      expect(refused.status).toBe(429)
      expect(refused.data).toEqual(TOO_MANY)
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60)
      expect([sent("shopper"), sent("rtp"), sent("link")]).toEqual([0, 0, 0])

      // Nobody is left unaware: Settings → PayLater says when and how often (issue 34).
      expect((await startSession(collections[STORE_CEILING].collectionId, PAYLATER_PROVIDER_ID, undefined, newClient())).status).toBe(429)
      const admin = await createAdminUser(api, getContainer())
      const settings = await api.get("/admin/paylater/settings", { ...admin, ...keep })
      expect(settings.status).toBe(200)
      const ceiling = settings.data.paylater.store_ceiling
      expect(ceiling).toMatchObject({ per_minute: STORE_CEILING, error: null, last_24h: 2, by_hour: [expect.objectContaining({ count: 2 })] })
      expect(Date.now() - Date.parse(ceiling.last_at)).toBeLessThan(10 * MINUTE)
    })
  })

  describe("admin", () => {
    let admin: AdminAuth
    beforeEach(async () => {
      admin = await createAdminUser(api, getContainer())
    })

    it("refuses a refund of more than two decimals with a clear message; nothing is refunded", async () => {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
      const session = started.session.data.session
      expect((await followToApp(api, await decideOnLink(String(session.data.payment_link_url), "approve"))).status).toBe(303)
      expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 1, captures: 1 })
      const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
      paylater().advanceClock(11 * MINUTE)

      for (const amount of [33.335, 359.995]) {
        const refused = await api.post(`/admin/payments/${payment.id}/refund`, { amount }, { ...admin, ...keep })
        expect(refused.status).toBe(400)
        expect(refused.data).toMatchObject({ type: "invalid_data", message: expect.stringContaining(`${amount} QAR has more than two decimals`) })
      }
      expect(paylater().order(session.id)!.refunds).toEqual([])
      expect(await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: payment.id })).toEqual([])

      const exact = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 33.33 }, { ...admin, ...keep })
      expect(exact.status).toBe(200)
      expect(paylater().order(session.id)!.refunds).toEqual([expect.objectContaining({ amount: "33.33" })])
    })

    it("shows on Settings → PayLater that webhooks are not checked for the merchant without merchantId", async () => {
      const settings = await api.get("/admin/paylater/settings", { ...admin, ...keep })
      expect(settings.status).toBe(200)
      expect(settings.data.paylater.registrations).toEqual([
        expect.objectContaining({ id: "paylater", merchant_id_checked: false, warnings: [expect.stringMatching(/^merchantId is not set/)] }),
      ])
    })
  })
}

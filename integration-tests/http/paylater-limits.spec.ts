/**
 * The store API's budgets and the other hardening a stranger or a merchant runs into, over Medusa's
 * real HTTP API against the PayLater sandbox, with the default limits (integration-tests/setup.js
 * raises them for every other spec):
 * - a mobile number's 4th Request to Pay within 10 minutes is answered 429, and nothing reaches
 *   PayLater (no look-up, no push), whichever cart it comes from;
 * - a cart's 6th Request to Pay within the hour, and its 11th payment link, likewise;
 * - a refund of more than two decimals is refused through the admin refund route, never rounded;
 * - without merchantId, Settings → PayLater says webhooks are not checked for the merchant.
 *
 * The budgets live in Medusa's locking module, which outlives the runner's per-test database reset:
 * every test uses its own numbers and carts.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import { SHOPPER_MESSAGES } from "../../src/storefront/messages"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, seedStore, type SeedResult } from "../helpers/seed"
import { createAdminUser, startCheckout, storeClient, type AdminAuth, type StoreClient } from "../helpers/store-client"
import { ledgerForCart } from "./paylater-link/ledger"
import { decideOnLink, followToApp } from "./paylater-link/shopper"
import { setTimeout as sleep } from "node:timers/promises"

jest.setTimeout(240_000)

// The defaults (medusa-config.ts reads blank as unset), and no merchant id for the Settings check.
useEnv({ PAYLATER_RTP_LIMIT_PER_MOBILE: "", PAYLATER_RTP_LIMIT_PER_CART: "", PAYLATER_LINK_LIMIT_PER_CART: "", PAYLATER_MERCHANT_ID: "" })

const paylater = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })
const MINUTE = 60_000

// The budgets count per fixed window (src/limits/slots.ts): a burst straddling a window boundary
// would find a fresh budget halfway. Each burst takes a few seconds; start it with 30 s of its window left.
async function clearOfWindowEdge(windowMinutes: number): Promise<void> {
  const windowMs = windowMinutes * MINUTE
  const left = windowMs - (Date.now() % windowMs)
  if (left < 30_000) await sleep(left + 1_000)
}
const TOO_MANY = { type: "not_allowed", code: "paylater_too_many_requests", message: SHOPPER_MESSAGES.too_many_requests.en }

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeedResult
    let store: StoreClient
    const keep = { validateStatus: () => true }

    beforeAll(async () => {
      seed = await seedStore(getContainer())
      store = storeClient(api, seed.publishableKey)
    })

    const sent = (endpoint: string) => paylater().requests().filter((r) => r.endpoint === endpoint).length

    const newCollection = async () => {
      const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
      return { cartId: cart.id, collectionId: (await store.createPaymentCollection(cart.id)).id }
    }
    const startSession = (collectionId: string, providerId: string, data?: Record<string, unknown>) =>
      api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        data ? { provider_id: providerId, data } : { provider_id: providerId },
        { headers: store.headers, ...keep }
      )

    describe("Request to Pay per mobile number", () => {
      it("pushes 3 times to one number from 3 carts; the 4th and 5th get 429 and reach PayLater not at all", async () => {
        await clearOfWindowEdge(10)
        const shopper = { mobile_number: "+974 5111 8022", email: "shopper2@sandbox.paylater.test" }
        const statuses: number[] = []
        for (let i = 0; i < 3; i++) {
          statuses.push((await startSession((await newCollection()).collectionId, PAYLATER_RTP_PROVIDER_ID, shopper)).status)
        }
        expect(statuses).toEqual([200, 200, 200])
        expect([sent("shopper"), sent("rtp")]).toEqual([3, 3])

        for (const mobile of ["+974 5111 8022", "51118022"]) {
          const refused = await startSession((await newCollection()).collectionId, PAYLATER_RTP_PROVIDER_ID, { ...shopper, mobile_number: mobile })
          expect(refused.status).toBe(429)
          expect(refused.data).toEqual(TOO_MANY)
          expect(refused.headers["retry-after"]).toBe("600")
        }
        // No look-up and no push: the budget is spent before the provider is asked.
        expect([sent("shopper"), sent("rtp")]).toEqual([3, 3])
      })
    })

    describe("per cart", () => {
      it("a cart's 6th Request to Pay within the hour gets 429 and nothing is sent", async () => {
        await clearOfWindowEdge(60)
        const { collectionId } = await newCollection()
        const numbers = ["51118021", "51118023", "51118024", "33000101", "33000102", "33000103"]
        const statuses: number[] = []
        for (const n of numbers.slice(0, 5)) statuses.push((await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: n })).status)
        // Pushes that PayLater refuses (numbers without an account) count too: they were sent.
        expect(statuses).not.toContain(429)
        expect(sent("rtp")).toBeGreaterThanOrEqual(5)
        const before = sent("rtp")

        const sixth = await startSession(collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: numbers[5] })
        expect(sixth.status).toBe(429)
        expect(sixth.data).toEqual(TOO_MANY)
        expect(sent("rtp")).toBe(before)
        // Another cart is not held back by this one: the push is sent (PayLater refuses a number
        // without an account, 422, but that is PayLater's answer, not ours).
        const elsewhere = await startSession((await newCollection()).collectionId, PAYLATER_RTP_PROVIDER_ID, { mobile_number: numbers[5] })
        expect(elsewhere.status).not.toBe(429)
        expect(sent("rtp")).toBeGreaterThan(before)
      })

      it("a cart's 11th payment link within the hour gets 429 and PayLater creates 10", async () => {
        await clearOfWindowEdge(60)
        const { collectionId } = await newCollection()
        const statuses: number[] = []
        for (let i = 0; i < 10; i++) statuses.push((await startSession(collectionId, PAYLATER_PROVIDER_ID)).status)
        expect(statuses).toEqual(Array(10).fill(200))
        expect(sent("link")).toBeGreaterThanOrEqual(10)

        const before = sent("link")
        const eleventh = await startSession(collectionId, PAYLATER_PROVIDER_ID)
        expect(eleventh.status).toBe(429)
        expect(eleventh.data).toEqual(TOO_MANY)
        expect(sent("link")).toBe(before)
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
  },
})

/**
 * What a storefront asks before the shopper pays: the instalment plans for an amount or a cart
 * (GET /store/paylater/instalments), and the shopper look-up the plugin makes before a Request to
 * Pay is pushed (no account, spending limit too low, look-up down or slow). Real store API, real
 * PostgreSQL, the PayLater sandbox over HTTP with its published test shoppers.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { SHOPPER_MESSAGES } from "../../src/storefront/messages"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { useSandbox } from "../helpers/sandbox"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } from "../helpers/seed"
import { DE_ADDRESS, startCheckout } from "../helpers/store-client"

jest.setTimeout(120_000)

const LOOKUP_TIMEOUT_MS = 1500
const previous = process.env.PAYLATER_ELIGIBILITY_TIMEOUT_MS
beforeAll(() => {
  process.env.PAYLATER_ELIGIBILITY_TIMEOUT_MS = String(LOOKUP_TIMEOUT_MS)
})
afterAll(() => {
  if (previous === undefined) delete process.env.PAYLATER_ELIGIBILITY_TIMEOUT_MS
  else process.env.PAYLATER_ELIGIBILITY_TIMEOUT_MS = previous
})

const paylater = useSandbox()

/** The sandbox's published test shoppers: 5111 8021 has 10,000 QAR of room, 5111 8025 only 250. */
const SHOPPER = { mobile: "5111 8021", email: "shopper1@sandbox.paylater.test" }
const LOW_LIMIT_SHOPPER = { mobile: "+974 5111 8025", email: "shopper5@sandbox.paylater.test" }

type Offer = {
  amount: string
  currency_code: string
  min_amount: string
  max_amount: string
  available: boolean
  reason: string | null
  plans: Array<{ count: number; instalment_amount: string; first_amount: string; interval_days: number; instalments: Array<{ number: number; amount: string; due_after_days: number }> }>
}

const hundredths = (text: string) => BigInt(text.replace(".", ""))

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
    const warnings: string[] = []

    beforeAll(async () => {
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<string, (...a: unknown[]) => unknown>
      const warn = logger.warn
      logger.warn = (...args: unknown[]) => {
        warnings.push(args.map(String).join(" "))
        return warn.apply(logger, args)
      }
    })

    const offerFor = async (query: string) => {
      const res = await api.get(`/store/paylater/instalments?${query}`, { headers: store.headers, validateStatus: () => true })
      return { status: res.status, body: res.data as Offer & { message?: string }, cacheControl: res.headers["cache-control"] as string }
    }

    describe("GET /store/paylater/instalments", () => {
      it.each([
        // [amount, first instalment, every later one]: the hundredths that do not divide go on the first.
        // The split itself is proven for every amount in instalments.spec.ts; here the route, at both edges and with a remainder.
        ["300.00", "75.00", "75.00"], // the lower edge of PayLater's range
        ["333.33", "83.34", "83.33"],
        ["25000.00", "6250.00", "6250.00"], // the upper edge
      ])("splits %s QAR into 4 instalments that add up exactly (first %s, then %s)", async (amount, first, rest) => {
        const { status, body, cacheControl } = await offerFor(`amount=${amount}`)
        expect(status).toBe(200)
        expect(cacheControl).toContain("max-age")
        expect(body.available).toBe(true)
        expect(body.reason).toBeNull()
        expect(body).toMatchObject({ currency_code: "qar", min_amount: "300.00", max_amount: "25000.00" })
        expect(body.plans).toHaveLength(1)
        const [plan] = body.plans
        expect(plan).toMatchObject({ count: 4, first_amount: first, instalment_amount: rest, interval_days: 30 })
        expect(plan.instalments.map((i) => i.amount)).toEqual([first, rest, rest, rest])
        expect(plan.instalments.map((i) => i.due_after_days)).toEqual([0, 30, 60, 90])
        const sum = plan.instalments.reduce((total, i) => total + hundredths(i.amount), 0n)
        expect(sum).toBe(hundredths(body.amount))
      })

      it.each([
        ["299.99", "below_minimum"],
        ["0.01", "below_minimum"],
        ["25000.01", "above_maximum"],
      ])("offers no plan for %s QAR (%s) but says the range", async (amount, reason) => {
        const { status, body } = await offerFor(`amount=${amount}`)
        expect(status).toBe(200)
        expect(body).toMatchObject({ available: false, reason, plans: [], min_amount: "300.00", max_amount: "25000.00" })
      })

      it("gives Request to Pay its own range, not the link's 300 QAR minimum (issue 26)", async () => {
        const rtp = await offerFor("amount=160.00&provider_id=pp_paylater-rtp_paylater")
        expect(rtp.status).toBe(200)
        expect(rtp.body).toMatchObject({ available: true, reason: null, min_amount: "1.00" })
        expect(rtp.body.plans.length).toBeGreaterThan(0)
        expect((await offerFor("amount=160.00&provider_id=pp_paylater_paylater")).body).toMatchObject({ available: false, reason: "below_minimum", min_amount: "300.00" })
      })

      // One of each refusal of the route's amount reading (money.spec.ts proves the parser on every spelling).
      it.each(["abc", "0"])("refuses amount=%s with a 400 and a message", async (amount) => {
        const { status, body } = await offerFor(`amount=${encodeURIComponent(amount)}`)
        expect(status).toBe(400)
        expect(body.message).toMatch(/amount/)
      })

      it("needs exactly one of amount and cart_id, a PayLater provider, and the publishable key", async () => {
        expect((await offerFor("")).status).toBe(400)
        expect((await offerFor("amount=360&cart_id=cart_1")).status).toBe(400)
        expect((await offerFor("amount=360&amount=370")).status).toBe(400)
        expect((await offerFor("amount=360&provider_id=pp_system_default")).status).toBe(404)
        expect((await offerFor("amount=360&provider_id=pp_paylater-rtp_paylater")).status).toBe(200)
        const bare = await api.get("/store/paylater/instalments?amount=360", { validateStatus: () => true })
        expect(bare.status).toBe(400)
      })

      it("answers for a cart with its delivery included, never cached, and 404 for an unknown cart", async () => {
        const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
        const { status, body, cacheControl } = await offerFor(`cart_id=${cart.id}`)
        expect(status).toBe(200)
        expect(cacheControl).toBe("no-store")
        expect(body.amount).toBe("360.00") // 350.00 + 10.00 delivery: what PayLater will be asked for
        expect(body.plans[0].instalments.map((i) => i.amount)).toEqual(["90.00", "90.00", "90.00", "90.00"])

        const small = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.belowMin.id })
        expect((await offerFor(`cart_id=${small.id}`)).body).toMatchObject({ amount: "110.00", available: false, reason: "below_minimum" })

        const euro = await store.createCart({ regionId: seed.euRegionId, variantId: seed.variants.standard.id, shippingAddress: DE_ADDRESS })
        expect((await offerFor(`cart_id=${euro.id}`)).body).toMatchObject({ currency_code: "eur", available: false, reason: "currency", plans: [] })

        expect((await offerFor("cart_id=cart_does_not_exist")).status).toBe(404)
      })
    })

    describe("shopper look-up before a Request to Pay", () => {
      // A 401 is the sandbox refusing a token from before its per-test reset; the client fetches a new one and repeats.
      const answered = (endpoint: string) => paylater().requests().filter((r) => r.endpoint === endpoint && r.status !== 401)
      const pushes = () => answered("rtp")
      const lookups = () => answered("shopper")
      // The look-up is made with the cart's own email (docs/security.md): each checkout sets it on the cart.
      const checkout = (data: Record<string, unknown>, cartEmail: string) =>
        startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id, email: cartEmail }, PAYLATER_RTP_PROVIDER_ID, data)

      it("pushes the request for a shopper with enough spending room, and keeps neither number nor email", async () => {
        const { session } = await checkout({ mobile_number: SHOPPER.mobile }, SHOPPER.email)
        expect(session.ok).toBe(true)
        expect(lookups()).toHaveLength(1)
        expect(pushes()).toHaveLength(1)
        const data = (session.ok ? session.data.session?.data : {}) as Record<string, unknown>
        expect(data.mobile_number_masked).toBe("974*****021")
        expect(data.mobile_number).toBeUndefined()
        expect(data.email).toBeUndefined()
      })

      it("tells the shopper at once when the mobile number and email have no PayLater account, and pushes nothing", async () => {
        // The shopper's own email sent by the storefront changes nothing: the cart's is looked up.
        const { session } = await checkout({ mobile_number: SHOPPER.mobile, email: SHOPPER.email }, "someone.else@example.qa")
        expect(session.ok).toBe(false)
        if (session.ok) return
        expect(session.status).toBe(400)
        expect(session.error).toMatchObject({ code: "paylater_not_eligible", message: SHOPPER_MESSAGES.not_eligible.en })
        expect(lookups()).toHaveLength(1)
        expect(pushes()).toHaveLength(0)
      })

      it("tells the shopper at once when the spending limit is below the total (250 < 360), in the same words as no account, and pushes nothing", async () => {
        const { session } = await checkout({ mobile_number: LOW_LIMIT_SHOPPER.mobile }, LOW_LIMIT_SHOPPER.email)
        expect(session.ok).toBe(false)
        if (session.ok) return
        expect(session.status).toBe(400)
        // The same answer as "no account": a stranger must not learn which (docs/security.md).
        expect(session.error).toMatchObject({ code: "paylater_not_eligible", message: SHOPPER_MESSAGES.not_eligible.en })
        expect(pushes()).toHaveLength(0)
      })

      // Fail closed: without PayLater's word that the number is the cart's shopper, nothing is pushed.
      const LOOKUP_UNAVAILABLE = { code: "paylater_lookup_unavailable", message: SHOPPER_MESSAGES.lookup_unavailable.en }

      it("pushes nothing when the look-up fails: 503, the shopper is offered the link, and it is logged", async () => {
        paylater().fault({ endpoint: "shopper", mode: "error", status: 500, count: 10 })
        warnings.length = 0
        const { session } = await checkout({ mobile_number: SHOPPER.mobile }, SHOPPER.email)
        expect(session.ok).toBe(false)
        if (session.ok) return
        expect(session.status).toBe(503)
        expect(session.error).toMatchObject(LOOKUP_UNAVAILABLE)
        expect(pushes()).toHaveLength(0)
        expect(warnings.some((w) => /shopper look-up for 974\*{5}021 failed .*no Request to Pay is sent/.test(w))).toBe(true)
      })

      it("pushes nothing when the look-up is slower than eligibilityTimeoutMs, and logs it", async () => {
        paylater().fault({ endpoint: "shopper", mode: "slow", delayMs: 6000, count: 1 })
        warnings.length = 0
        const { session } = await checkout({ mobile_number: SHOPPER.mobile }, SHOPPER.email)
        expect(session.ok).toBe(false)
        if (session.ok) return
        expect(session.status).toBe(503)
        expect(session.error).toMatchObject(LOOKUP_UNAVAILABLE)
        expect(pushes()).toHaveLength(0)
        // Logged only when the short limit ran out: the checkout went on without waiting for the 6 s answer.
        expect(warnings.some((w) => new RegExp(`took longer than ${LOOKUP_TIMEOUT_MS} ms`).test(w))).toBe(true)
      })

      it("looks up the cart's email when the storefront sent none, and skips the look-up for payment links by default", async () => {
        // Another sandbox shopper: the previous test's 6 s look-up (SHOPPER's) may still be answered now.
        const rtp = await checkout({ mobile_number: "5111 8023" }, "shopper3@sandbox.paylater.test")
        expect(rtp.session.ok).toBe(true)
        expect(lookups().filter((r) => r.query.email === "shopper3@sandbox.paylater.test")).toHaveLength(1)
        expect(pushes()).toHaveLength(1)

        const link = await startCheckout(
          store,
          { regionId: seed.regionId, variantId: seed.variants.standard.id },
          PAYLATER_PROVIDER_ID,
          { mobile_number: SHOPPER.mobile, email: "someone.else@example.qa" }
        )
        expect(link.session.ok).toBe(true)
        // Filtered on this test's email: the previous test's 6 s look-up may still be answered now.
        expect(lookups().filter((r) => r.query.email === "someone.else@example.qa")).toHaveLength(0)
        const data = (link.session.ok ? link.session.data.session?.data : {}) as Record<string, unknown>
        expect(typeof data.payment_link_url).toBe("string")
        expect(data.mobile_number).toBeUndefined()
        expect(data.email).toBeUndefined()
      })
    })
  },
})

/**
 * Webhooks as other senders write them, over real HTTP into /paylater/webhooks: a merchant id sent
 * as a JSON number, and non-ASCII comments upper-cased ASCII-only (PHP's strtoupper) before hashing.
 * Both are genuine and place the order; the same bodies with a wrong signature are refused with 403
 * and change nothing. The store checks the merchant id (PAYLATER_MERCHANT_ID=138).
 */
import { createHash, createHmac } from "node:crypto"
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { PAYLATER_PROVIDER_ID } from "../helpers/seed"
import { startCheckout } from "../helpers/store-client"
import { watchWebhookPipeline } from "../helpers/webhook-pipeline"
import { eventually, ledgerForCart } from "./paylater-link/ledger"
import { decideOnLink } from "./paylater-link/shopper"

jest.setTimeout(180_000)

const MERCHANT = "138"
useEnv({ PAYLATER_MERCHANT_ID: MERCHANT })

const paylater = useSandbox({ merchantId: MERCHANT })

/** Section 6 written out here, with the sender's own upper-casing. */
function sign(
  fields: { merchantId: string | number; orderId: string; status: string; timestamp: number; comments?: string },
  secret: string,
  upper: (text: string) => string
) {
  const text = `${fields.merchantId}${fields.orderId}${fields.status}${fields.timestamp}${fields.comments ?? ""}`
  const txHash = createHash("md5").update(upper(text), "utf8").digest("hex")
  return { ...fields, txHash, signature: createHmac("sha256", secret).update(txHash).digest("hex") }
}
const fullUpper = (t: string) => t.toUpperCase()
const phpUpper = (t: string) => t.replace(/[a-z]/g, (c) => c.toUpperCase())

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer })
    const keep = { validateStatus: () => true }

    beforeEach(() => {
      // Only the hand-written notifications below reach the store.
      paylater().setWebhookUrl(null)
    })

    /** Paid at PayLater; the shopper never comes back, so only a webhook can place the order. */
    async function paidWithoutReturn() {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
      const session = started.session.data.session
      await decideOnLink(String(session.data.payment_link_url), "approve")
      return { sessionId: session.id, cartId: started.cart.id }
    }

    const post = (body: unknown) =>
      api.post("/paylater/webhooks", body, { ...keep, headers: { "content-type": "application/json" } })
    const secret = () => paylater().options.webhookSecret

    async function expectRefusedAndNothingPlaced(body: Record<string, unknown>, cartId: string) {
      const watch = watchWebhookPipeline(getContainer())
      try {
        const res = await post(body)
        expect(res.status).toBe(403)
        expect(res.data.message).toMatch(/Invalid signature/)
        await watch.drain()
        expect(watch.emitted()).toBe(0)
        expect((await ledgerForCart(getContainer(), cartId)).orders).toBe(0)
      } finally {
        watch.stop()
      }
    }

    it("accepts a merchantId sent as a JSON number and places the order; a wrong signature is still refused", async () => {
      const { sessionId, cartId } = await paidWithoutReturn()
      const body = sign({ merchantId: 138, orderId: sessionId, status: "success", timestamp: Date.now() }, secret(), fullUpper)
      expect(typeof body.merchantId).toBe("number")

      await expectRefusedAndNothingPlaced({ ...body, signature: createHmac("sha256", "not-the-secret").update(body.txHash).digest("hex") }, cartId)

      const res = await post(body)
      expect(res.status).toBe(200)
      expect(res.data).toEqual({ message: "Webhook received successfully" })
      const ledger = await eventually(() => ledgerForCart(getContainer(), cartId), (l) => l.orders === 1 && l.captures === 1)
      expect(ledger).toMatchObject({ orders: 1, payments: 1, captures: 1 })
    })

    it("accepts non-ASCII comments hashed with ASCII-only upper-casing, and the full Unicode reading too", async () => {
      const comments = "Payé dans l'app — شكرا, straße"
      expect(phpUpper(comments)).not.toBe(fullUpper(comments))
      const first = await paidWithoutReturn()
      const php = sign({ merchantId: MERCHANT, orderId: first.sessionId, status: "success", timestamp: Date.now(), comments }, secret(), phpUpper)

      await expectRefusedAndNothingPlaced({ ...php, signature: "0".repeat(64) }, first.cartId)
      // The comment changed after signing: refused under both readings.
      expect((await post({ ...php, comments: `${comments}!` })).status).toBe(403)

      expect((await post(php)).status).toBe(200)
      await eventually(() => ledgerForCart(getContainer(), first.cartId), (l) => l.orders === 1 && l.captures === 1)

      const second = await paidWithoutReturn()
      const unicode = sign({ merchantId: MERCHANT, orderId: second.sessionId, status: "success", timestamp: Date.now(), comments }, secret(), fullUpper)
      expect((await post(unicode)).status).toBe(200)
      await eventually(() => ledgerForCart(getContainer(), second.cartId), (l) => l.orders === 1 && l.captures === 1)
    })

    it("still refuses a correctly signed numeric merchantId for another merchant", async () => {
      const { sessionId } = await paidWithoutReturn()
      const body = sign({ merchantId: 139, orderId: sessionId, status: "success", timestamp: Date.now() }, secret(), fullUpper)
      const res = await post(body)
      expect(res.status).toBe(403)
      expect(res.data.message).toMatch(/another merchant/)
    })
  },
})

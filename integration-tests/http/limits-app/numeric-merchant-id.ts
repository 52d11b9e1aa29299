/**
 * A notification whose merchantId arrives as a JSON number, over real HTTP into /paylater/webhooks:
 * hashed as its decimal text (section 6 as webhook-hostile/wire.ts writes it out), it verifies and its order is placed; the
 * same body signed with another secret is refused with 403 and changes nothing. This boot checks no
 * merchant id (LIMITS_ENV leaves PAYLATER_MERCHANT_ID empty); a numeric id meeting a configured one,
 * another merchant's refused, and non-ASCII comments are webhook.spec.ts's.
 */
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { startCheckout } from "../../helpers/store-client"
import { watchWebhookPipeline } from "../../helpers/webhook-pipeline"
import { decideOnLink } from "../paylater-link/shopper"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { hmacOf, txHashOf } from "../webhook-hostile/wire"

/** Signed over the id's decimal text, sent as a JSON number. */
function signed(fields: { merchantId: number; orderId: string; status: string; timestamp: number }, secret: string) {
  const txHash = txHashOf({ ...fields, merchantId: String(fields.merchantId) })
  return { ...fields, txHash, signature: hmacOf(txHash, secret) }
}

export function numericMerchantId({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  // No { webhooks }: the sandbox sends nothing, so only the notification below can place the order.
  const { seed, store } = useSeededStore({ api, getContainer })
  const post = (body: unknown) =>
    api.post("/paylater/webhooks", body, { validateStatus: () => true, headers: { "content-type": "application/json" } })

  it("places the order from a notification whose merchantId is a JSON number; signed with another secret it changes nothing", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session : null
    if (!session) throw new Error(`no session: ${JSON.stringify(started.session)}`)
    // Paid at PayLater; the shopper never comes back.
    await decideOnLink(String(session.data.payment_link_url), "approve")
    const body = signed({ merchantId: 138, orderId: session.id, status: "success", timestamp: Date.now() }, paylater().options.webhookSecret)

    const watch = watchWebhookPipeline(getContainer())
    try {
      const forged = await post({ ...body, signature: hmacOf(body.txHash, "not-the-secret") })
      expect({ status: forged.status, message: forged.data?.message }).toEqual({ status: 403, message: expect.stringMatching(/Invalid signature/) })
      await watch.drain()
      expect(watch.emitted()).toBe(0)
    } finally {
      watch.stop()
    }
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 0 })

    const res = await post(body)
    expect({ status: res.status, data: res.data }).toEqual({ status: 200, data: { message: "Webhook received successfully" } })
    const placed = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1 && l.captures === 1)
    expect(placed).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
  })
}

/**
 * Smoke test of the integration harness: the app boots with the PayLater plugin loaded and the
 * sandbox wired in, the seed gives a store that can really check out, and the store / admin
 * helpers work. Payments here go through `pp_system_default`; PayLater flows have their own specs.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import {
  PAYLATER_PROVIDER_ID,
  SYSTEM_PROVIDER_ID,
} from "../../helpers/seed"
import {
  createAdminUser,
  DE_ADDRESS,
  type AdminAuth,
} from "../../helpers/store-client"

export function storeSmoke({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  let webhookUrl: string

  // Runs after the runner's boot and before its snapshot, so every test starts seeded.
  beforeAll(async () => {
    admin = await createAdminUser(api, getContainer())
    webhookUrl = paylater.pointWebhooksAt(api)
  })

  async function countOrders(): Promise<number> {
    const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "order", fields: ["id"] })
    return data.length
  }

  it("boots against the sandbox", () => {
    expect(process.env.PAYLATER_API_BASE_URL).toBe(paylater.url())
    expect(webhookUrl).toBe(`${api.defaults.baseURL}/hooks/payment/paylater_paylater`)
  })

  it("offers PayLater and the system provider in the Qatar region", async () => {
    const ids = (await store.listPaymentProviders(seed.regionId)).map((p) => p.id)
    expect(ids).toEqual(expect.arrayContaining([PAYLATER_PROVIDER_ID, SYSTEM_PROVIDER_ID]))
    expect(seed.regionPaymentProviders).toEqual(expect.arrayContaining(ids))
  })

  it("completes a QAR cart with pp_system_default into exactly one order", async () => {
    const cart = await store.createCart({
      regionId: seed.regionId,
      variantId: seed.variants.standard.id,
      quantity: 1,
      email: "qa-shopper@example.com",
    })
    expect(cart.currency_code).toBe("qar")
    expect(cart.shipping_methods).toHaveLength(1)
    // No tax regions are seeded: 350.00 item + 10.00 shipping.
    expect(Number(cart.total)).toBe(360)

    const pc = await store.createPaymentCollection(cart.id)
    const session = await store.createPaymentSession(pc.id, SYSTEM_PROVIDER_ID)
    expect(session.ok).toBe(true)

    const done = await store.completeCart(cart.id)
    if (done.type !== "order") throw new Error(`cart not completed: ${JSON.stringify(done)}`)
    expect(done.order.currency_code).toBe("qar")
    expect(Number(done.order.total)).toBe(360)

    // Completing again answers the same order and creates no second one.
    const again = await store.completeCart(cart.id)
    expect(again.type === "order" && again.order.id).toBe(done.order.id)
    expect(await countOrders()).toBe(1)

    const order = await store.getOrder(done.order.id)
    expect(order.email).toBe("qa-shopper@example.com")

    const { data } = await api.get("/admin/orders?fields=id,currency_code", admin)
    expect(data.orders.map((o: { id: string }) => o.id)).toEqual([done.order.id])
  })

  it("completes a EUR cart with pp_system_default into exactly one order", async () => {
    const cart = await store.createCart({
      regionId: seed.euRegionId,
      variantId: seed.variants.fractional.id,
      quantity: 2,
      shippingAddress: DE_ADDRESS,
      shippingOptionId: seed.euShippingOptionId,
    })
    expect(cart.currency_code).toBe("eur")
    expect(Number(cart.total)).toBe(2 * 310.25 + 5)

    const pc = await store.createPaymentCollection(cart.id)
    expect((await store.createPaymentSession(pc.id, SYSTEM_PROVIDER_ID)).ok).toBe(true)

    const done = await store.completeCart(cart.id)
    if (done.type !== "order") throw new Error(`cart not completed: ${JSON.stringify(done)}`)
    expect(done.order.currency_code).toBe("eur")
    expect(await countOrders()).toBe(1)
  })
}

/**
 * What Medusa's completion leaves when its process dies inside it, built as the fault campaign found
 * it: the order exists (with its links and the cart's completion, or only its link to the cart), and
 * the checkout's PayLater payment is recorded on no order.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYLATER_PROVIDER_ID, type SeedResult } from "../../helpers/seed"
import { startCheckout, type StoreClient } from "../../helpers/store-client"
import type { PayLaterSandbox } from "../../../src/sandbox"

export async function orderWithoutPayment(container: MedusaContainer, cartId: string, collectionId: string, written: "whole" | "cart_link_only" = "whole"): Promise<string> {
  const cart = await container.resolve(Modules.CART).retrieveCart(cartId, { relations: ["items"] })
  const [order] = await container.resolve(Modules.ORDER).createOrders([
    {
      region_id: cart.region_id!,
      sales_channel_id: cart.sales_channel_id!,
      email: cart.email!,
      currency_code: cart.currency_code,
      items: cart.items!.map((i) => ({ title: i.title, quantity: i.quantity as number, unit_price: i.unit_price as number, variant_id: i.variant_id! })),
    },
  ])
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  await link.create({ [Modules.ORDER]: { order_id: order.id }, [Modules.CART]: { cart_id: cartId } })
  if (written === "cart_link_only") return order.id
  await link.create({ [Modules.ORDER]: { order_id: order.id }, [Modules.PAYMENT]: { payment_collection_id: collectionId } })
  await container.resolve(Modules.CART).updateCarts(cartId, { completed_at: new Date() })
  return order.id
}

/**
 * A paid link whose payment our settlement authorized and captured, then Medusa's completion died
 * after creating the order and linking it to its cart.
 */
export async function halfMadeOrder(container: MedusaContainer, store: StoreClient, seed: SeedResult, paylater: PayLaterSandbox) {
  const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
  const session = started.session.ok ? started.session.data.session! : null
  if (!session) throw new Error(`no session: ${JSON.stringify(started.session)}`)
  await paylater.approveLink(session.id)
  await container.resolve(Modules.PAYMENT).authorizePaymentSession(session.id, {})
  const orderId = await orderWithoutPayment(container, started.cart.id, started.paymentCollection.id, "cart_link_only")
  return { started, session, orderId }
}

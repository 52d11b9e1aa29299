/**
 * The shopper's cart both as-installed tests pay for, built through the storefront's own SDK the way
 * a storefront does: the 350 QAR item, a Doha address, the store's delivery (10 QAR).
 */
import type Medusa from "@medusajs/js-sdk"

type Json = Record<string, any>

export const QA_ADDRESS = {
  first_name: "Noor",
  last_name: "Al-Kuwari",
  address_1: "Building 12, Street 840, Zone 66",
  city: "Doha",
  country_code: "qa",
  phone: "+97451118021",
}

export async function readyCart(sdk: Medusa, seeded: Json): Promise<Json> {
  const { cart } = await sdk.store.cart.create({
    region_id: seeded.regionId,
    items: [{ variant_id: seeded.variants.standard.id, quantity: 1 }],
  })
  return toReview(sdk, cart.id)
}

/** A cart with its items (made by a storefront) through the checkout's steps up to the review: email, address, delivery. */
export async function toReview(sdk: Medusa, cartId: string): Promise<Json> {
  await sdk.store.cart.update(cartId, {
    // The sandbox's published test shopper of 5111 8021: a Request to Pay goes out only when
    // PayLater's look-up matches the number with the cart's own email (docs/security.md).
    email: "shopper1@sandbox.paylater.test",
    shipping_address: QA_ADDRESS,
    billing_address: QA_ADDRESS,
  })
  const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cartId })
  const { cart: withShipping } = await sdk.store.cart.addShippingMethod(cartId, { option_id: shipping_options[0].id })
  return withShipping
}

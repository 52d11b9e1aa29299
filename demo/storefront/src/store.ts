/**
 * Everything this storefront asks Medusa, through the official JS SDK. The PayLater-specific part
 * lives in ./paylater; this file is what any Medusa storefront has.
 */
import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import type { StorefrontConfig } from "./config"

export type Sdk = Medusa

export function createSdk(config: StorefrontConfig): Sdk {
  return new Medusa({ baseUrl: config.backendUrl, publishableKey: config.publishableKey })
}

/** Qatar's region: PayLater works in QAR only, so this storefront sells in Qatar only. */
export async function qatarRegion(sdk: Sdk): Promise<HttpTypes.StoreRegion> {
  const { regions } = await sdk.store.region.list({ fields: "id,name,currency_code,*countries" })
  const region = regions.find((r) => r.countries?.some((c) => c.iso_2 === "qa"))
  if (!region) throw new Error("This store has no region for Qatar")
  return region
}

/** Product fields with the variant prices calculated for the region (needs `region_id`). */
export const PRODUCT_FIELDS = "id,title,subtitle,description,handle,thumbnail,*variants,*variants.calculated_price"

/** Cart fields the checkout shows, including the payment sessions PayLater's link is kept in. */
export const CART_FIELDS =
  "id,email,currency_code,region_id,completed_at,total,subtotal,shipping_total,item_total," +
  "*items,*shipping_address,*shipping_methods,*payment_collection,*payment_collection.payment_sessions"

export function retrieveCart(sdk: Sdk, cartId: string): Promise<HttpTypes.StoreCart> {
  return sdk.store.cart.retrieve(cartId, { fields: CART_FIELDS }).then((r) => r.cart)
}

/**
 * The checkout only remembers the cart id between page loads; the cart itself always comes fresh
 * from Medusa. The payment redirect URLs carry no cart id (anyone holding one could read the cart):
 * a shopper back from PayLater finds it here.
 */
const CART_KEY = "paylater-demo:cart-id"
export const cartStorage = {
  get: (): string | null => localStorage.getItem(CART_KEY),
  set: (id: string): void => localStorage.setItem(CART_KEY, id),
  clear: (): void => localStorage.removeItem(CART_KEY),
}

/** Medusa answers errors as `{ message }`; the SDK throws them as `FetchError` with that message. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return "Something went wrong. Please try again."
}

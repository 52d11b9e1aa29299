import { PayLaterCheckoutError } from "./errors"
import type { PayLaterSdk } from "./sdk"

/**
 * A cart that is already an order (PayLater's webhook placed it while the shopper was away, or link 1
 * was paid in another tab): the storefront must lead the shopper to the order's confirmation and
 * forget the cart, never show the checkout again. What the kit gives for that, in one call.
 */

export interface PlacedOrder {
  orderId: string
}

const ORDER_ID = /^order_[A-Za-z0-9]{1,100}$/
const COUNTRY = /^[a-z]{2}$/i

/**
 * The starter's order confirmation route, `/[countryCode]/order/[id]/confirmed`. Only well-formed
 * ids make a path (an id comes from the store's answer, but a path is no place for surprises).
 */
export function orderConfirmationPath(countryCode: string, orderId: string): string {
  if (!ORDER_ID.test(orderId)) throw new Error(`Not an order id: ${orderId}`)
  return COUNTRY.test(countryCode) ? `/${countryCode.toLowerCase()}/order/${orderId}/confirmed` : `/order/${orderId}/confirmed`
}

/** The order a start was refused for ("already placed"), or null for any other error. */
export function placedOrderOf(error: unknown): PlacedOrder | null {
  return error instanceof PayLaterCheckoutError && error.code === "already_placed" && error.orderId && ORDER_ID.test(error.orderId)
    ? { orderId: error.orderId }
    : null
}

/**
 * The order a completed cart became (the plugin's GET /store/paylater/carts/:id/order), or null while
 * the cart is not an order. For a checkout page opened on a cart the webhook completed.
 */
export async function fetchPlacedOrder(sdk: PayLaterSdk, cartId: string): Promise<PlacedOrder | null> {
  try {
    const { order_id } = await sdk.client.fetch<{ order_id: string }>(`/store/paylater/carts/${encodeURIComponent(cartId)}/order`)
    return ORDER_ID.test(order_id) ? { orderId: order_id } : null
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return null
    throw error
  }
}

export interface LeaveForOrderOptions {
  /** The storefront's country segment, e.g. `qa`. */
  countryCode: string
  /**
   * Forgets the cart: the starter's own server action (its `removeCartId`), so the next visit starts
   * a new cart instead of the completed one (adding to it fails: "already completed").
   */
  forgetCart: () => Promise<unknown>
  /** Goes to the path, replacing the checkout in the history (e.g. `(path) => router.replace(path)`). */
  navigate: (path: string) => void
}

/** One call: forget the cart, then go to the order's confirmation. A failed forget still leads to the order. */
export async function leaveForPlacedOrder(placed: PlacedOrder, options: LeaveForOrderOptions): Promise<void> {
  try {
    await options.forgetCart()
  } catch {
    // The order is placed whatever happens to the cookie: the shopper must see it.
  }
  options.navigate(orderConfirmationPath(options.countryCode, placed.orderId))
}

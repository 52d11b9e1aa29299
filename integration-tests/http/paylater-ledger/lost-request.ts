/**
 * A Request to Pay whose answer was lost: PayLater takes the push but its answer times out, and the
 * status check that should settle the doubt fails too. The storefront gets an error; the request is
 * on the shopper's phone all the same.
 */
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_RTP_PROVIDER_ID, type SeedResult } from "../../helpers/seed"
import { startCheckout, type ApiResult, type StoreClient } from "../../helpers/store-client"

export const SHOPPER_MOBILE = "5111 8021"

export interface LostRequest {
  cartId: string
  /** The reference PayLater holds the request under (what the shopper's app approves). */
  reference: string
  /** What the storefront got back when it asked for the session. */
  storefront: ApiResult<unknown>
}

export async function loseRequestToPay(store: StoreClient, seed: SeedResult, paylater: SandboxHandle): Promise<LostRequest> {
  const cart = { regionId: seed.regionId, variantId: seed.variants.standard.id }
  // The sandbox was reset for this test: one ordinary request first, so the app holds a valid token
  // and the fault below hits the push itself, not a re-authentication.
  const warm = await startCheckout(store, cart, PAYLATER_RTP_PROVIDER_ID, { mobile_number: SHOPPER_MOBILE })
  if (!warm.session.ok) throw new Error(`warm-up request: ${JSON.stringify(warm.session)}`)

  paylater().fault({ endpoint: "rtp", mode: "timeout", commit: true })
  paylater().fault({ endpoint: "status", mode: "error", status: 503, count: 50 })
  const started = await startCheckout(store, cart, PAYLATER_RTP_PROVIDER_ID, { mobile_number: SHOPPER_MOBILE })
  paylater().clearFaults()

  const lost = paylater()
    .requests()
    .filter((r) => r.endpoint === "rtp" && r.fault === "timeout")
  if (lost.length !== 1) throw new Error(`expected one timed-out push, saw ${lost.length}`)
  const reference = String((lost[0].body as { merchant_order_reference?: string }).merchant_order_reference)
  const order = paylater().order(reference)
  if (!order || order.kind !== "rtp" || order.status !== 1) {
    throw new Error(`the lost push should be pending on the phone: ${JSON.stringify(order)}`)
  }
  return { cartId: started.cart.id, reference, storefront: started.session }
}

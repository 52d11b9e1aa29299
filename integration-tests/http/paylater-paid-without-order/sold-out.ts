/** The shopper pays for the last unit, which sells out before they are back: completion fails. */
import type { AxiosInstance } from "axios"
import { PAYLATER_PROVIDER_ID, type SeedResult } from "../../helpers/seed"
import { startCheckout, type StoreClient } from "../../helpers/store-client"
import { decideOnLink, followToApp } from "../paylater-link/shopper"
import type { StockedVariant } from "./stock"

export async function payThenSellOut(api: AxiosInstance, store: StoreClient, seed: SeedResult, stocked: StockedVariant) {
  const started = await startCheckout(store, { regionId: seed.regionId, variantId: stocked.variantId }, PAYLATER_PROVIDER_ID)
  if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
  const session = started.session.data.session
  const location = await decideOnLink(String(session.data.payment_link_url), "approve")
  await stocked.setStock(0)
  const back = await followToApp(api, location)
  return { sessionId: session.id, cartId: started.cart.id, back, returnAgain: () => followToApp(api, location) }
}

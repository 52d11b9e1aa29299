// One storefront checkout over Medusa's real store API, built from the integration tests' own
// helpers (store-client.ts: cart + shipping + payment collection + session, the steps of its
// startCheckout), so the benchmarks exercise exactly the flow the tests prove correct. Each step
// is timed so a slower checkout can be pinned on the step that costs it.
//
//   PayLater link:  ... session -> shopper approves on the sandbox -> GET /paylater/return/:id (the
//                   route completes the cart and redirects to the order page)
//   system default: ... session -> POST /store/carts/:id/complete
//   PayLater link completed by Medusa: ... session -> shopper approves -> POST /store/carts/:id/complete
const axios = require("axios")
const { registerTs } = require("./ts")

registerTs()
const { storeClient } = require("../../integration-tests/helpers/store-client.ts")
const { PAYLATER_PROVIDER_ID, SYSTEM_PROVIDER_ID } = require("../../integration-tests/helpers/seed.ts")

const STANDARD_SKU = "PAYLATER-TEST-STANDARD" // 350 QAR (+10 shipping): inside PayLater's range

/** Store client and the 350 QAR variant of the seeded store. */
async function openStore(stack) {
  // Keep-alive like a storefront server would; no proxy, loopback only.
  const api = axios.create({ baseURL: stack.backend, proxy: false, timeout: 60_000 })
  const client = storeClient(api, stack.publishableKey)
  const found = await client.get(`/store/products?fields=id,*variants&limit=50`)
  if (!found.ok) throw new Error(`GET /store/products answered ${found.status}`)
  const variant = found.data.products.flatMap((p) => p.variants ?? []).find((v) => v.sku === STANDARD_SKU)
  if (!variant) throw new Error(`the seeded store has no ${STANDARD_SKU} variant`)
  return { api, client, regionId: stack.regionId, variantId: variant.id }
}

/** Milliseconds since `t0` (a performance.now() reading). */
const since = (t0) => performance.now() - t0

/**
 * Cart with shipping, payment collection, session (the steps of startCheckout, timed one by one):
 * throws unless the session exists.
 */
async function startSession(store, providerId, phases) {
  let t = performance.now()
  const cart = await store.client.createCart({ regionId: store.regionId, variantId: store.variantId })
  phases.cart = since(t)
  t = performance.now()
  const collection = await store.client.createPaymentCollection(cart.id)
  phases.collection = since(t)
  t = performance.now()
  const created = await store.client.createPaymentSession(collection.id, providerId)
  phases.session = since(t)
  const session = created.ok ? created.data.session : undefined
  if (!session) throw new Error(`${providerId} session not created: ${JSON.stringify(created)}`)
  return { cart, session }
}

/**
 * A paid PayLater checkout. `approve(orderId)` plays the shopper (in-process sandbox call, or the
 * hosted page over HTTP); the return route must answer 303 to the order-confirmed page.
 */
async function payLaterCheckout(store, approve) {
  const phases = {}
  const { cart, session } = await startSession(store, PAYLATER_PROVIDER_ID, phases)
  let t = performance.now()
  await approve(session.data.paylater_order_id, session.data.payment_link_url)
  phases.approve = since(t)
  t = performance.now()
  // Wall-clock window of the return route, to tell its PayLater calls from the webhook pipeline's.
  const returnWindow = { start: Date.now(), end: 0 }
  const res = await store.api.get(`/paylater/return/${encodeURIComponent(session.id)}?outcome=success`, {
    maxRedirects: 0,
    validateStatus: () => true,
  })
  const location = String(res.headers.location ?? "")
  const orderId = /\/order\/confirmed\/(order_[A-Za-z0-9]+)/.exec(location)?.[1]
  phases.complete = since(t)
  returnWindow.end = Date.now()
  if (res.status !== 303 || !orderId) throw new Error(`return route answered ${res.status} -> ${location || JSON.stringify(res.data)}`)
  return { cartId: cart.id, sessionId: session.id, orderId, phases, returnWindow }
}

/**
 * A paid PayLater checkout completed the way Medusa's own storefront does it: POST
 * /store/carts/:id/complete once the shopper approved, so the provider asks PayLater inside Medusa's
 * completion. What a PayLater order costs Medusa itself (a captured payment, its capture and order
 * transaction); the return route's settlement is measured against it.
 */
async function payLaterCompletedByMedusa(store, approve) {
  const phases = {}
  const { cart, session } = await startSession(store, PAYLATER_PROVIDER_ID, phases)
  await approve(session.data.paylater_order_id, session.data.payment_link_url)
  const t = performance.now()
  const done = await store.client.completeCart(cart.id)
  phases.complete = since(t)
  if (done.type !== "order") throw new Error(`complete answered ${done.status}: ${JSON.stringify(done.error)}`)
  return { cartId: cart.id, sessionId: session.id, orderId: done.order.id, phases }
}

/** The same checkout with Medusa's built-in manual provider, completed the usual way. */
async function systemCheckout(store) {
  const phases = {}
  const { cart, session } = await startSession(store, SYSTEM_PROVIDER_ID, phases)
  const t = performance.now()
  const done = await store.client.completeCart(cart.id)
  phases.complete = since(t)
  if (done.type !== "order") throw new Error(`complete answered ${done.status}: ${JSON.stringify(done.error)}`)
  return { cartId: cart.id, sessionId: session.id, orderId: done.order.id, phases }
}

module.exports = { openStore, payLaterCheckout, payLaterCompletedByMedusa, systemCheckout, PAYLATER_PROVIDER_ID, SYSTEM_PROVIDER_ID }

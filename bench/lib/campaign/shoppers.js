// The campaign's shoppers: seeded random checkouts over Medusa's real store API, paying (or not) on
// the sandbox. Each checkout is one cart. A shopper meets a dead server like a real one does: the
// request fails, they wait a little and try the step again, and give up after a while.
const { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID } = require("../../../integration-tests/helpers/seed.ts")

const SHOPPERS = ["97451118021", "97451118022", "97451118023", "97451118024"]
const emailOf = (mobile) => `shopper${Number(mobile.slice(-1))}@sandbox.paylater.test`
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs a step until it answers below 500 (a dead or restarting server throws or answers 5xx), at
 * most `tries` times: a shopper waits through a restart (about 10 s on a quiet machine, up to a
 * minute on a busy one) and gives up after that.
 */
async function step(fn, { tries = 30, waitMs = 2500 } = {}) {
  let last
  for (let i = 0; i < tries; i++) {
    try {
      const result = await fn()
      if (!(result && typeof result.status === "number" && result.status >= 500)) return result
      last = result
    } catch (error) {
      last = error
    }
    await sleep(waitMs)
  }
  return { failed: true, last: String(last?.message ?? last?.status ?? last) }
}

/**
 * @param {{ store: { api: any, client: any, regionId: string, variantId: string }, sandbox: any,
 *           rng: ReturnType<import("./rng").createRng>, counts: Record<string, number> }} ctx
 */
function createShopper(ctx) {
  const { sandbox, rng, counts } = ctx
  const bump = (name) => (counts[name] = (counts[name] ?? 0) + 1)

  async function startSession(store, collectionId, providerId, mobile) {
    const r = await step(() => store.client.createPaymentSession(collectionId, providerId, providerId === PAYLATER_RTP_PROVIDER_ID ? { mobile_number: mobile } : undefined), { tries: 12 })
    return r?.ok ? r.data.session : null
  }

  const approve = async (kind, orderId) => {
    try {
      if (kind === "rtp") await sandbox.approveRequest(orderId)
      else await sandbox.approveLink(orderId)
      return true
    } catch {
      return false // unknown (the create never reached PayLater) or already decided
    }
  }
  const decline = async (kind, orderId) => {
    try {
      if (kind === "rtp") await sandbox.declineRequest(orderId)
      else await sandbox.declineLink(orderId)
    } catch {
      // nothing to decline
    }
  }
  const returnTo = (store, sessionId, outcome) =>
    step(() => store.api.get(`/paylater/return/${encodeURIComponent(sessionId)}?outcome=${outcome}`, { maxRedirects: 0, validateStatus: () => true }))
  const poll = (store, sessionId) => step(() => store.client.get(`/store/paylater/payment-sessions/${encodeURIComponent(sessionId)}`), { tries: 4 })

  /** After paying: how the shopper (or nobody) tells the store. */
  async function finish(store, session, cartId) {
    const how = rng.weighted({ return: 4, complete: 2, poll: 2, webhook_only: 1, double_return: 1 })
    bump(`finish_${how}`)
    // Settling now: the campaign asks about these sessions right after a kill (no lock of the dead process may block them).
    ctx.inFlight?.add(session.id)
    try {
      await finishBy(store, how, session, cartId)
    } finally {
      ctx.inFlight?.delete(session.id)
    }
  }

  async function finishBy(store, how, session, cartId) {
    if (how === "return") await returnTo(store, session.id, "success")
    else if (how === "double_return") await Promise.all([returnTo(store, session.id, "success"), returnTo(store, session.id, "success")])
    else if (how === "complete") await step(() => store.client.completeCart(cartId))
    else if (how === "poll") for (let i = 0; i < 3; i++) (await poll(store, session.id), await sleep(700))
  }

  /** One checkout, start to end. Returns what the shopper did. */
  /** `force.store`: the instance this shopper's requests go to (default ctx.store). */
  return async function checkout(force = {}) {
    const store = force.store ?? ctx.store
    const mobile = rng.pick(SHOPPERS)
    const kind = force.kind ?? (rng.chance(0.3) ? "rtp" : "link")
    const providerId = kind === "rtp" ? PAYLATER_RTP_PROVIDER_ID : PAYLATER_PROVIDER_ID
    const scenario = force.scenario ?? rng.weighted({ approve: 10, decline: 2, abandon: 2, decline_then_new: 2, double_submit: 2 })
    bump(`${kind}_${scenario}`)
    const cart = await step(() => store.client.createCart({ regionId: store.regionId, variantId: store.variantId, email: emailOf(mobile) }))
    if (!cart?.id) return bump("cart_failed")
    bump("carts")
    const collection = await step(() => store.client.createPaymentCollection(cart.id))
    if (!collection?.id) return bump("collection_failed")
    if (rng.chance(0.25)) ctx.webhookFault?.()

    if (scenario === "double_submit") {
      // Two tabs: two sessions started at once on one collection, both paid.
      const sessions = (await Promise.all([startSession(store, collection.id, providerId, mobile), startSession(store, collection.id, providerId, mobile)])).filter(Boolean)
      for (const s of sessions) await approve(kind, s.data?.paylater_order_id ?? s.id)
      for (const s of sessions) await finish(store, s, cart.id)
      return
    }
    let session = await startSession(store, collection.id, providerId, mobile)
    if (!session) return bump("start_refused")
    const orderId = session.data?.paylater_order_id ?? session.id
    if (scenario === "abandon") {
      if (kind === "link") {
        try {
          sandbox.openLink(orderId)
          sandbox.abandonLink(orderId)
        } catch {
          // never created at PayLater
        }
      }
      if (rng.chance(0.5)) await returnTo(store, session.id, "failure")
      return
    }
    if (scenario === "decline" || scenario === "decline_then_new") {
      await decline(kind, orderId)
      if (kind === "link" || rng.chance(0.5)) await returnTo(store, session.id, "failure")
      if (scenario === "decline") return
      // A new request after the decline, on the same cart.
      session = await startSession(store, collection.id, providerId, mobile)
      if (!session) return bump("start_refused")
    }
    await approve(kind, session.data?.paylater_order_id ?? session.id)
    await finish(store, session, cart.id)
  }
}

module.exports = { createShopper }

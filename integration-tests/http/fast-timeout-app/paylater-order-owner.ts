/**
 * A placed order's money stays with it (issue 23), tried from outside as a shopper, a stranger and an
 * operator would: the store API, the sandbox (its app, hosted page and clock), Settings → PayLater,
 * Medusa's orders and payments, and PayLater's own refund records.
 *
 * - The DTC shopper with the kept cart cookie: a new payment on the completed cart is refused with
 *   `paylater_order_already_placed` and the order to show (also default-app's issue 34 test).
 * - Another method chosen on the completed cart (Medusa deletes the paid session): nothing listed.
 * - A double submit leaving two live sessions, both paid: one order, one capture, the EXTRA one
 *   listed and refunded, never the one that placed the order (whose-money.suite.ts and
 *   settle.suite.ts hold the rule for a second payment however it came).
 */
import { Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, SYSTEM_PROVIDER_ID, seedStore, type SeedResult } from "../../helpers/seed"
import { createAdminUser, startCheckout, storeClient, type AdminAuth, type StoreClient } from "../../helpers/store-client"
import { MINUTE, runScheduledJobs } from "../paylater-ledger/clocks"
import { merchantView } from "../paylater-ledger/merchant"
import { successDelivered as notifiedOfSuccess } from "../paylater-ledger/notifications"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { decideOnLink } from "../paylater-link/shopper"
import Medusa from "@medusajs/js-sdk"
import { startLinkCheckout, startRequestToPay } from "../../../src/storefront/checkout"
import { PayLaterCheckoutError } from "../../../src/storefront/errors"
import { SHOPPER_MESSAGES } from "../../../src/storefront/messages"

// The app and the sandbox: fast-timeout-app.spec.ts (a lost answer costs 1.5 s; tokens outlive the
// sandbox clock's jump past the refund window).
const SHOPPER = "5111 8021"
/** PayLater accepts a refund from 10 minutes after the payment; the store waits a little longer. */
const PAST_REFUND_WINDOW = 12

/** A new session on the collection the way Medusa's store route makes it, without the plugin's route middleware. */
async function forceSession(container: MedusaContainer, collectionId: string, providerId: string, data: Record<string, unknown> = {}) {
  const { result } = await createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: collectionId, provider_id: providerId, data },
  })
  return result
}

/** A second live session beside the first (what two concurrent store posts can leave). */
async function secondLiveSession(container: MedusaContainer, collectionId: string, providerId: string) {
  const payment = container.resolve(Modules.PAYMENT)
  const [collection] = await payment.listPaymentCollections({ id: collectionId }, { select: ["id", "amount", "currency_code"] })
  return payment.createPaymentSession(collectionId, {
    provider_id: providerId,
    currency_code: collection.currency_code,
    amount: collection.amount,
    data: {},
  })
}

export function orderOwner({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  let seed: SeedResult
  let store: StoreClient
  let admin: AdminAuth
  const merchant = merchantView(api, () => admin, paylater)
  const successDelivered = (orderId: string) => notifiedOfSuccess(paylater, orderId)

  beforeAll(async () => {
    seed = await seedStore(getContainer())
    store = storeClient(api, seed.publishableKey)
    paylater.pointWebhooksAt(api, "/paylater/webhooks")
  })

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
  })

  afterEach(() => paylater().clearFaults())

  /** A Request to Pay approved in the app while nobody watches: the webhook alone places the order. */
  async function requestPlacedByWebhook() {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_RTP_PROVIDER_ID, {
      mobile_number: SHOPPER,
    })
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    await paylater().approveRequest(session.id)
    await successDelivered(session.id)
    const placed = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)
    return { cartId: started.cart.id, collectionId: started.paymentCollection.id, session, orderId: placed.orderId! }
  }

  /** A payment link paid on PayLater's page; the shopper never comes back, the webhook places the order. */
  async function linkPlacedByWebhook() {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    await decideOnLink(String(session.data.payment_link_url), "approve")
    await successDelivered(session.id)
    const placed = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)
    return { cartId: started.cart.id, collectionId: started.paymentCollection.id, session, orderId: placed.orderId! }
  }

  /** Reconciliation and recovery at +15 minutes, then past PayLater's refund window. */
  async function timePasses() {
    await runScheduledJobs(getContainer(), 15)
    paylater().advanceClock(PAST_REFUND_WINDOW * MINUTE)
    await runScheduledJobs(getContainer(), 15 + PAST_REFUND_WINDOW)
    await runScheduledJobs(getContainer(), 30 + PAST_REFUND_WINDOW)
  }

  it("the DTC shopper with the kept cart cookie: the storefront kit answers already_placed with the order for both methods, and nothing reaches PayLater", async () => {
    const placed = await requestPlacedByWebhook()
    // The storefront's own SDK and the cart as the starter still holds it (its cookie survived the webhook-only completion).
    const sdk = new Medusa({ baseUrl: String(api.defaults.baseURL), publishableKey: seed.publishableKey })
    const { cart } = await sdk.store.cart.retrieve(placed.cartId)
    const before = paylater().orders().length
    const tries = [
      () => startRequestToPay(sdk, cart, { mobileNumber: SHOPPER }),
      () => startLinkCheckout(sdk, cart),
    ]
    for (const start of tries) {
      const error = await start().then(
        () => null,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(PayLaterCheckoutError)
      const refused = error as PayLaterCheckoutError
      expect({ code: refused.code, kind: refused.kind, status: refused.status, orderId: refused.orderId }).toEqual({
        code: "already_placed",
        kind: "already_placed",
        status: 409,
        orderId: placed.orderId,
      })
      expect(refused.messageIn("ar")).toBe(SHOPPER_MESSAGES.already_placed.ar)
    }
    expect(paylater().orders()).toHaveLength(before)
    await timePasses()
    expect(await merchant.itemsFor(placed.session.id, "all")).toEqual([])
    expect(merchant.refundsAtPayLater(placed.session.id)).toEqual([])
    expect(await ledgerForCart(getContainer(), placed.cartId)).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
  })

  it("another method chosen on the completed cart deletes the paid session: nothing is listed or refunded", async () => {
    const placed = await linkPlacedByWebhook()
    await forceSession(getContainer(), placed.collectionId, SYSTEM_PROVIDER_ID)
    await timePasses()
    expect(await merchant.itemsFor(placed.session.id, "all")).toEqual([])
    expect(merchant.refundsAtPayLater(placed.session.id)).toEqual([])
    expect(await ledgerForCart(getContainer(), placed.cartId)).toMatchObject({ orders: 1, refunds: 0 })
  })

  it("double submit: two live sessions both paid: one order with one capture, the other payment listed and refunded", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const first = started.session.data.session
    const second = await secondLiveSession(getContainer(), started.paymentCollection.id, PAYLATER_PROVIDER_ID)
    // Both paid before either notification is settled: the first success notification is held back
    // until the second is sent (the store settles a notification 200 ms after it, so the timing of two
    // approvals cannot be what keeps them apart; this file once had the store's 5 s delay for that).
    paylater().webhookFault({ mode: "reorder", status: "success" })
    await Promise.all([decideOnLink(String(first.data.payment_link_url), "approve"), decideOnLink(String(second.data!.payment_link_url), "approve")])
    await Promise.all([successDelivered(first.id), successDelivered(second.id)])
    await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)

    const listed = await eventually(
      async () => [...(await merchant.itemsFor(first.id)), ...(await merchant.itemsFor(second.id))],
      (items) => items.length > 0
    )
    expect(listed).toHaveLength(1)
    const extraId = listed[0].paylater_order_id as string
    const ownerId = extraId === first.id ? second.id : first.id
    await timePasses()
    expect(merchant.refundsAtPayLater(extraId)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(merchant.refundsAtPayLater(ownerId)).toEqual([])
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 1, captures: 1 })
  })
}

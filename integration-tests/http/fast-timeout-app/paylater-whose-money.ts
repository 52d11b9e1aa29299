/**
 * Whose money a PayLater payment is, decided at the moment of acting (issue 31), tried from outside
 * as a shopper and an operator would: the store API, the sandbox (its hosted page and clock),
 * Settings → PayLater (the admin API its page reads), Medusa's orders and payments, and PayLater's
 * own refund records.
 *
 * - Paid, sold out (no order, listed); stock comes back and the shopper pays with the store's other
 *   method: the order holds THAT payment, so the PayLater money is extra and goes back to the shopper
 *   (never closed as "the order was placed with this payment").
 * - Paid while PayLater is briefly not offered in the region (no order, listed); offered again, the
 *   shopper's return places the order with that very payment: the item leaves the list with a note,
 *   a refund from the list is refused (409), and nothing is refunded at PayLater.
 * - The storefront completes with the other method while a PayLater settlement that read the cart
 *   before the order is still authorizing: the PayLater payment Medusa records after the order is
 *   extra, listed as paid twice and refunded (it was "paid" and silent).
 * - A link whose create answer was lost is retried as "-2"; the shopper pays "-2" and the order is
 *   placed, and the first link is paid too (an older tab): the first is extra, listed and refunded at
 *   its own PayLater order, never recorded as the order's; a refund of the order goes to "-2"
 *   (fault campaign, issue 32: the superseded attempt took the session's payment, so "-2" was held by
 *   no order and on no list, and the order's refund was sent for the other PayLater order).
 * - The reverse (two-instance campaign): the first link is paid and placed while its create's answer
 *   is still lost, then the retry "-2" is paid too: the order holds the first (the attempt its payment
 *   was authorized for), "-2" is extra, listed and refunded; it never takes the order's payment.
 */
import { Modules } from "@medusajs/framework/utils"
import { updateRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { atStoreTime } from "../../helpers/store-clock"
import { PLUGIN_WEBHOOK_PATH, useSeededStore } from "../../helpers/seeded-store"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, SYSTEM_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { PAYLATER_LEDGER_MODULE, type PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger"
import { MINUTE, runScheduledJobs } from "../paylater-ledger/clocks"
import { merchantView } from "../paylater-ledger/merchant"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { orderFigures } from "../paylater-link/order-figures"
import { decideOnLink, followToApp } from "../paylater-link/shopper"
import { payThenSellOut } from "../paylater-paid-without-order/sold-out"
import { createStockedVariant, type StockedVariant } from "../paylater-paid-without-order/stock"

// The app and the sandbox: fast-timeout-app.spec.ts (a lost create answer costs 1.5 s; tokens
// outlive the sandbox clock's jump past the refund window).
/** PayLater accepts a refund from 10 minutes after the payment; the store waits a little longer. */
const PAST_REFUND_WINDOW = 12

export function whoseMoneyWhenActing({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  let stocked: StockedVariant
  const merchant = merchantView(api, () => admin, paylater)

  beforeAll(async () => {
    stocked = await createStockedVariant(getContainer(), seed, 350)
  })

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
    // No notifications: each test says which signal settles what.
    paylater().setWebhookUrl(null)
    await stocked.setStock(1)
  })

  /** Reconciliation and recovery at +15 minutes, then past PayLater's refund window. */
  async function timePasses() {
    await runScheduledJobs(getContainer(), 15)
    paylater().advanceClock(PAST_REFUND_WINDOW * MINUTE)
    await runScheduledJobs(getContainer(), 15 + PAST_REFUND_WINDOW)
    await runScheduledJobs(getContainer(), 30 + PAST_REFUND_WINDOW)
  }

  const qatarOffers = (providers: string[]) =>
    updateRegionsWorkflow(getContainer()).run({ input: { selector: { id: seed.regionId }, update: { payment_providers: providers } } })

  /**
   * A create that times out must reach PayLater: the sandbox checks a call's token on its own clock,
   * which earlier tests moved past PayLater's refund window, and a create refused for its token
   * never lands. One ordinary checkout first makes the client take a new token.
   */
  async function withFreshToken() {
    const warmUp = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!warmUp.session.ok) throw new Error(`warm-up checkout: ${JSON.stringify(warmUp.session)}`)
  }

  it("a retried link's first attempt paid after the order: extra, listed and refunded at its own PayLater order; the order's refund goes to the retry", async () => {
    // The first create reaches PayLater but its answer is lost: the provider retries under "-2".
    await withFreshToken()
    paylater().fault({ endpoint: "link", mode: "timeout", commit: true })
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    const first = session.id
    const retry = `${session.id}-2`
    expect(session.data.paylater_order_id).toBe(retry)
    expect(paylater().order(first)).toBeTruthy()

    // The shopper pays the link they were given and comes back: the order is placed with "-2".
    const location = await decideOnLink(String(session.data.payment_link_url), "approve")
    const back = await followToApp(api, location)
    const { orderId } = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)
    expect(back.location).toContain(`/order/confirmed/${orderId}`)

    // The first link is paid too (PayLater had it; an older tab, or PayLater's own page).
    await paylater().approveLink(first)
    expect(paylater().order(first)!.status).toBe(2)

    // Reconciliation finds it: extra, the shopper paid twice.
    await runScheduledJobs(getContainer(), 3)
    const item = await merchant.listed(first)
    expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00", order_id: orderId, can_refund: true })
    expect(item.summary).toMatch(/paid twice/)
    // The order's payment is "-2"'s: recorded on its row, never on the first's.
    const ledger = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    const [row1, row2] = await Promise.all([ledger.findAttempt(first), ledger.findAttempt(retry)])
    const [medusaPayment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
    expect(row2).toMatchObject({ state: "paid", order_id: orderId, payment_id: medusaPayment.id })
    expect(row1).toMatchObject({ state: "paid", order_id: null, payment_id: null, superseded_by: retry })

    // A partial refund of the order from its page goes to the PayLater order the order holds.
    paylater().advanceClock(PAST_REFUND_WINDOW * MINUTE)
    const refund = await api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 50 }, { ...admin, validateStatus: () => true })
    expect(refund.status).toBe(200)
    expect(merchant.refundsAtPayLater(retry)).toEqual([expect.objectContaining({ amount: "50.00" })])
    expect(merchant.refundsAtPayLater(first)).toEqual([])

    // The extra payment goes back in full, once; the order keeps its payment.
    await runScheduledJobs(getContainer(), 3 + PAST_REFUND_WINDOW)
    await runScheduledJobs(getContainer(), 20 + PAST_REFUND_WINDOW)
    expect(merchant.refundsAtPayLater(first)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(merchant.refundsAtPayLater(retry)).toHaveLength(1)
    const [closed] = await merchant.itemsFor(first, "all")
    expect(closed).toMatchObject({ status: "resolved", resolution: "refunded" })
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orderId, orders: 1 })
  })

  it("the first link paid and placed while its create's answer is still lost, then the retry paid too: the first holds the order, the retry is extra and refunded", async () => {
    // The first create reaches PayLater but its answer is late: the provider waits 1.5 s, then retries
    // as "-2", whose answer takes a while too: Medusa writes the session's record only after it.
    await withFreshToken()
    paylater().fault({ endpoint: "link", mode: "timeout", commit: true })
    paylater().fault({ endpoint: "link", mode: "slow", delayMs: 700 })
    const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
    const collection = await store.createPaymentCollection(cart.id)
    const known = new Set(paylater().orders().map((o) => o.orderId))
    const creating = store.createPaymentSession(collection.id, PAYLATER_PROVIDER_ID)

    // Meanwhile the first link is paid (PayLater's page was open) and its notification settles it.
    let first: { orderId: string } | undefined
    for (let i = 0; i < 100 && !first; i++) {
      first = paylater().orders().find((o) => !known.has(o.orderId) && !/-\d+$/.test(o.orderId))
      if (!first) await new Promise((r) => setTimeout(r, 20))
    }
    if (!first) throw new Error("the first create never reached the sandbox")
    await paylater().approveLink(first.orderId)
    paylater.pointWebhooksAt(api, PLUGIN_WEBHOOK_PATH)
    expect(await paylater().sendWebhook({ orderId: first.orderId, status: "success" })).toMatchObject({ outcome: "delivered" })
    const { orderId } = await eventually(() => ledgerForCart(getContainer(), cart.id), (l) => l.orders === 1)
    // "Placed" is the notification's settlement finished: the order exists as soon as Medusa links it,
    // and the settlement records the order on the row right after (slower on a loaded machine).
    const placedLedger = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    await eventually(() => placedLedger.findAttempt(first!.orderId), (row) => row?.order_id === orderId)

    // The retry answers: the session now names "-2", and the shopper pays it as well.
    const created = await creating
    const retry = `${first.orderId}-2`
    expect(created.ok && created.data.session?.data.paylater_order_id).toBe(retry)
    await paylater().approveLink(retry)
    paylater().setWebhookUrl(null)
    await runScheduledJobs(getContainer(), 3)

    // The order holds the first; the retry is the extra payment, listed and refunded, never the order's.
    const ledger = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    const [row1, row2] = await Promise.all([ledger.findAttempt(first.orderId), ledger.findAttempt(retry)])
    const [medusaPayment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: first.orderId })
    expect(row1).toMatchObject({ state: "paid", order_id: orderId, payment_id: medusaPayment.id })
    expect(row2).toMatchObject({ state: "paid", order_id: null })
    const item = await merchant.listed(retry)
    expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00", order_id: orderId, can_refund: true })
    expect(item.payment_id ?? null).toBeNull()

    await timePasses()
    expect(merchant.refundsAtPayLater(retry)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(merchant.refundsAtPayLater(first.orderId)).toEqual([])
    expect(await ledgerForCart(getContainer(), cart.id)).toMatchObject({ orderId, orders: 1, refunds: 0 })
    // Medusa's record of the session says what its payment is: the settlement never recorded it while
    // Medusa's own create was still to write the session (it would have written "pending" over it, and
    // its completion, failing on that, cancelled the order's payment).
    const [sessionRecord] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: first.orderId }, { select: ["id", "status"] })
    expect(sessionRecord.status).toBe("authorized")
    expect(medusaPayment.canceled_at ?? null).toBeNull()
  })

  it("sold out, then paid with the store's other method: the PayLater money is extra and refunded in full, never closed unrefunded", async () => {
    const { sessionId, cartId } = await payThenSellOut(api, store, seed, stocked)
    const item = await merchant.listed(sessionId)
    expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00" })

    // Stock comes back; the shopper pays with the other method and completes.
    await stocked.setStock(1)
    const other = await store.createPaymentSession(item.payment_collection_id, SYSTEM_PROVIDER_ID)
    expect(other.ok).toBe(true)
    const completed = await store.completeCart(cartId)
    expect(completed).toMatchObject({ type: "order" })
    const orderId = completed.type === "order" ? completed.order.id : null

    await timePasses()
    // The shopper gets the PayLater money back: the order is held by the other payment.
    expect(merchant.refundsAtPayLater(sessionId)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    const [closed] = await merchant.itemsFor(sessionId, "all")
    expect(closed).toMatchObject({ status: "resolved", resolution: "refunded" })
    expect(closed.resolution_note).toMatch(/Refunded 360.00 QAR in full automatically.*another payment method.*paid twice/)
    expect(await ledgerForCart(getContainer(), cartId)).toMatchObject({ orderId, orders: 1 })
  })

  it("paid, its settlement died after recording it, its session deleted with the mark lost, the cart ordered with the other method: still found, listed and refunded", async () => {
    // Fault campaign seed 949383780: the row said paid, the plugin's completion died on a dropped
    // database connection, a new start deleted the session while markSessionGone's write was lost too.
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    if (!session) throw new Error("no session")
    await decideOnLink(String(session.data.payment_link_url), "approve")
    const ledger = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    expect(await ledger.recordStatus(session.id, { code: 2, signal: "webhook" })).toMatchObject({ state: "paid", order_id: null })

    // The shopper picks the other method: Medusa deletes the PayLater session, the mark is lost.
    expect((await store.createPaymentSession(started.paymentCollection.id, SYSTEM_PROVIDER_ID)).ok).toBe(true)
    const row = (await ledger.findAttempt(session.id))!
    expect(row.session_gone_at).toBeTruthy()
    await ledger.updatePayLaterAttempts({ id: row.id, session_gone_at: null })
    const completed = await store.completeCart(started.cart.id)
    expect(completed).toMatchObject({ type: "order" })

    await timePasses()
    expect(merchant.refundsAtPayLater(session.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    const [closed] = await merchant.itemsFor(session.id, "all")
    expect(closed).toMatchObject({ kind: "paid_without_order", status: "resolved", resolution: "refunded" })
    expect((await ledger.findAttempt(session.id))!.order_id).toBeNull()
  })

  /** A cart whose collection has the other method's session (as the store makes it). */
  async function cartWithTheOtherMethod() {
    const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id })
    const collection = await store.createPaymentCollection(cart.id)
    expect((await store.createPaymentSession(collection.id, SYSTEM_PROVIDER_ID)).ok).toBe(true)
    return { payment: getContainer().resolve(Modules.PAYMENT), cart, collection }
  }

  /** A PayLater link on the collection beside its other session (a second tab), paid by the shopper. */
  async function paidPayLaterSessionOn(collection: { id: string; amount: number }) {
    const paylaterSession = await getContainer().resolve(Modules.PAYMENT).createPaymentSession(collection.id, {
      provider_id: PAYLATER_PROVIDER_ID,
      currency_code: "qar",
      amount: collection.amount,
      data: {},
    })
    await decideOnLink(String(paylaterSession.data!.payment_link_url), "approve")
    return paylaterSession
  }

  /** One cart, two live sessions: the other method's (created first) and a PayLater link the shopper paid. */
  async function twoTabsPaidWithPayLater() {
    const { payment, cart, collection } = await cartWithTheOtherMethod()
    return { payment, cart, collection, paylaterSession: await paidPayLaterSessionOn(collection) }
  }

  it("the storefront completes with another method while a PayLater settlement is authorizing: the PayLater payment is extra, listed and refunded", async () => {
    // Two tabs: the other method chosen in one, PayLater's page open in the other (two live sessions,
    // what two concurrent store posts can leave).
    const { payment, cart, collection, paylaterSession } = await twoTabsPaidWithPayLater()

    // The other tab completes first: the order is placed with the other method.
    const completed = await store.completeCart(cart.id)
    expect(completed).toMatchObject({ type: "order" })
    const orderId = completed.type === "order" ? completed.order.id : ""
    // Placed with the other method: Medusa has no PayLater payment yet.
    expect((await payment.listPayments({ payment_collection_id: collection.id } as never)).map((p) => p.provider_id)).toEqual([SYSTEM_PROVIDER_ID])

    // The PayLater settlement that read the cart before the order now authorizes its session: Medusa
    // records the PayLater payment on the placed order's collection.
    await payment.authorizePaymentSession(paylaterSession.id, {})
    // Its notification arrives: whose money is it?
    paylater.pointWebhooksAt(api, PLUGIN_WEBHOOK_PATH)
    expect(await paylater().sendWebhook({ orderId: paylaterSession.id, status: "success" })).toMatchObject({ outcome: "delivered" })

    const item = await merchant.listed(paylaterSession.id)
    expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00", order_id: orderId, can_refund: true })
    expect(item.summary).toMatch(/paid twice/)
    await timePasses()
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(await ledgerForCart(getContainer(), cart.id)).toMatchObject({ orderId, orders: 1 })
  })

  it("a second PayLater payment staff capture on the order and then refund in full there: its item closes as refunded at once, and nothing is sent again", async () => {
    const { paylaterSession, item, extra } = await extraBesideTheOrder()
    // Staff record the extra payment on the order through the API (a capture of a payment Medusa
    // captured at authorization: the order's transactions now hold it, so the order does) and refund
    // it in full there, as the order's money.
    const keep = { ...admin, validateStatus: () => true }
    expect((await api.post(`/admin/payments/${extra.id}/capture`, {}, keep)).status).toBe(200)
    expect((await api.post(`/admin/payments/${extra.id}/refund`, { amount: 360 }, keep)).status).toBe(200)
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])

    // Medusa's refund goes through the money plan when Medusa announces it (payment.refunded): the
    // item closes as refunded without any page read or job run (the ledger's own row, not the list's view).
    const ledger = getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
    const [closed] = await eventually(
      () => ledger.listPayLaterAttentions({ id: item.id }),
      ([row]) => row?.status === "resolved"
    )
    expect(closed).toMatchObject({ resolution: "refunded", resolution_note: "Refunded 360.00 QAR in full at PayLater." })
    await timePasses()
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toHaveLength(1)
  })

  /**
   * The order placed with the other method; the PayLater payment Medusa records after it (captured at
   * authorization) is extra, listed, past PayLater's refund window. With the order's figures as the
   * admin shows them, before anything is refunded.
   *
   * The PayLater session is made once the order is placed (a tab that opened PayLater's page just
   * before, whose settlement authorizes after the order): with two live sessions at completion,
   * Medusa's completion authorizes whichever its query returns first (`paymentSessions[0]`,
   * complete-cart.js), which PostgreSQL's row order decides, and may place the order with PayLater.
   */
  async function extraBesideTheOrder() {
    const { payment, cart, collection } = await cartWithTheOtherMethod()
    const completed = await store.completeCart(cart.id)
    const orderId = completed.type === "order" ? completed.order.id : ""
    expect(orderId).toBeTruthy()
    const paylaterSession = await paidPayLaterSessionOn(collection)
    await payment.authorizePaymentSession(paylaterSession.id, {})
    expect((await payment.listPayments({ payment_collection_id: collection.id } as never)).map((p) => p.provider_id).sort()).toEqual(
      [PAYLATER_PROVIDER_ID, SYSTEM_PROVIDER_ID].sort()
    )
    paylater.pointWebhooksAt(api, PLUGIN_WEBHOOK_PATH)
    expect(await paylater().sendWebhook({ orderId: paylaterSession.id, status: "success" })).toMatchObject({ outcome: "delivered" })
    const item = await merchant.listed(paylaterSession.id)
    expect(item.summary).toMatch(/paid twice/)
    paylater().advanceClock(PAST_REFUND_WINDOW * MINUTE)
    const figures = () => orderFigures(api, admin, getContainer(), orderId)
    const before = await figures()
    expect(before).toMatchObject({ total: 360, credit_lines: [], transactions: 0 })
    const [extra] = await payment.listPayments({ payment_session_id: paylaterSession.id })
    return { payment, paylaterSession, item, extra, figures, before, orderId }
  }

  it("an extra payment refunded from the order page: refused with where to refund it, nothing sent; refunded from Settings → PayLater, the order's money unchanged", async () => {
    const { payment, paylaterSession, item, extra, figures, before } = await extraBesideTheOrder()
    // The dashboard offers Refund on the extra payment (Medusa captured it at authorization). Medusa's
    // refund would count it against the order's own money (a -360 transaction and a 360 credit line:
    // the order would read as free while its own 360 is still to be captured), so it is refused.
    const keep = { ...admin, validateStatus: () => true }
    const refused = await api.post(`/admin/payments/${extra.id}/refund`, { amount: 360 }, keep)
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/paid twice/)
    expect(refused.data.message).toContain("Settings → PayLater")
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([])
    expect(await figures()).toEqual(before)

    // Settings → PayLater gives it back without touching the order's records.
    const refunded = await merchant.refundFromList(item.id)
    expect(refunded.status).toBe(200)
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(await figures()).toEqual(before)
    const [after] = await payment.listPayments({ id: extra.id }, { relations: ["refunds"] })
    expect(after.refunds?.map((r) => Number(r.amount))).toEqual([360])
    expect(await merchant.itemsFor(paylaterSession.id)).toEqual([])
    await timePasses()
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toHaveLength(1)
    expect(await figures()).toEqual(before)
  })

  it("an extra payment's refund from Settings → PayLater whose answer was lost, confirmed by staff: booked on the payment, never on the order", async () => {
    const { payment, paylaterSession, item, extra, figures, before } = await extraBesideTheOrder()
    // PayLater pays the refund out; its answer never arrives.
    paylater().fault({ endpoint: "refund", mode: "timeout", commit: true })
    expect((await merchant.refundFromList(item.id)).status).toBeGreaterThanOrEqual(400)
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toHaveLength(1)
    const unknown = (await merchant.itemsFor(paylaterSession.id)).find((i) => i.kind === "refund_outcome_unknown")
    expect(unknown).toMatchObject({ amount: "360.00" })

    // Staff checked PayLater's portal: it was refunded.
    const keep = { ...admin, validateStatus: () => true }
    const resolved = await api.post(`/admin/paylater/attention/${unknown!.id}/resolve`, { resolution: "refunded" }, keep)
    expect(resolved.status).toBe(200)
    expect(resolved.data).toMatchObject({ booked: true, booking_error: null })
    const [after] = await payment.listPayments({ id: extra.id }, { relations: ["refunds"] })
    expect(after.refunds?.map((r) => Number(r.amount))).toEqual([360])
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toHaveLength(1)
    expect(await figures()).toEqual(before)
  })

  it("cancelling an order with an extra PayLater payment on it: refused until the extra went back from Settings → PayLater, then cancelled, nothing refunded twice", async () => {
    const { paylaterSession, item, figures, before, orderId } = await extraBesideTheOrder()
    const keep = { ...admin, validateStatus: () => true }
    // Medusa's cancel refunds every captured payment on the order and books it there: the extra too.
    const refused = await api.post(`/admin/orders/${orderId}/cancel`, {}, keep)
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/paid twice.*refund it from Settings → PayLater first, then cancel/)
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([])
    expect(await figures()).toEqual(before)

    expect((await merchant.refundFromList(item.id)).status).toBe(200)
    const cancelled = await api.post(`/admin/orders/${orderId}/cancel`, {}, keep)
    expect(cancelled.status).toBe(200)
    expect(cancelled.data.order).toMatchObject({ status: "canceled" })
    expect(merchant.refundsAtPayLater(paylaterSession.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
  })

  it("cancelling an order paid with PayLater: its own payment is refunded in full at PayLater, once", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    await followToApp(api, await decideOnLink(String(session.data.payment_link_url), "approve"))
    const { orderId } = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)
    paylater().advanceClock(PAST_REFUND_WINDOW * MINUTE)
    const cancelled = await api.post(`/admin/orders/${orderId}/cancel`, {}, { ...admin, validateStatus: () => true })
    expect(cancelled.status).toBe(200)
    expect(merchant.refundsAtPayLater(session.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
  })

  it("two live sessions, the other method's still pending: PayLater's paid settlement drops it and places the order with the PayLater payment", async () => {
    // Two tabs again, but nobody completes with the other method: its session, created first, is the
    // one Medusa's completion would take unless settlement drops it once PayLater said paid.
    const { payment, cart, collection, paylaterSession } = await twoTabsPaidWithPayLater()
    paylater.pointWebhooksAt(api, PLUGIN_WEBHOOK_PATH)
    expect(await paylater().sendWebhook({ orderId: paylaterSession.id, status: "success" })).toMatchObject({ outcome: "delivered" })

    await eventually(() => ledgerForCart(getContainer(), cart.id), (l) => l.orders === 1)
    expect((await payment.listPayments({ payment_collection_id: collection.id } as never)).map((p) => p.provider_id)).toEqual([PAYLATER_PROVIDER_ID])
    expect((await payment.listPaymentSessions({ payment_collection_id: collection.id })).map((s) => s.id)).toEqual([paylaterSession.id])
    expect(await ledgerForCart(getContainer(), cart.id)).toMatchObject({ orders: 1, captures: 1 })
    expect(await merchant.itemsFor(paylaterSession.id, "all")).toEqual([])
  })

  it("listed, then the order placed with that very payment: off the list with a note, the refund from the list refused, nothing refunded", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    const location = await decideOnLink(String(session.data.payment_link_url), "approve")

    // PayLater is briefly not offered in Qatar: the paid cart cannot complete.
    await qatarOffers([SYSTEM_PROVIDER_ID])
    const back = await followToApp(api, location)
    expect(back.location).toMatch(/paylater_error=paid_not_placed/)
    const item = await merchant.listed(session.id)
    expect(item).toMatchObject({ kind: "paid_without_order", can_refund: true })

    // Offered again; the shopper comes back once the completion's backoff allows another try.
    await qatarOffers([PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, SYSTEM_PROVIDER_ID])
    const again = await atStoreTime(2 * MINUTE, () => followToApp(api, location))
    const { orderId } = await eventually(() => ledgerForCart(getContainer(), started.cart.id), (l) => l.orders === 1)
    expect(again.location).toContain(`/order/confirmed/${orderId}`)

    // The order holds this payment: nothing open about it, and the item says why it closed.
    expect(await merchant.itemsFor(session.id)).toEqual([])
    const [closed] = await merchant.itemsFor(session.id, "all")
    expect(closed).toMatchObject({ status: "resolved", can_refund: false })
    expect(closed.resolution_note).toMatch(/order/i)
    expect(closed.resolution_note).toContain(orderId!)

    // The stale page's "Refund" button: refused with a message, nothing sent.
    const refused = await merchant.refundFromList(item.id)
    expect(refused.status).toBe(409)
    expect(refused.data.message).toMatch(/order/i)

    await timePasses()
    expect(merchant.refundsAtPayLater(session.id)).toEqual([])
    const payments = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id }, { relations: ["refunds", "captures"] })
    expect(payments.map((p) => ({ captures: p.captures?.length, refunds: p.refunds?.length }))).toEqual([{ captures: 1, refunds: 0 }])
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orderId, orders: 1, refunds: 0 })
  })
}

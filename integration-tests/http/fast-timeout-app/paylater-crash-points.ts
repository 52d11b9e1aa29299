/**
 * Losses the fault campaign (bench/fault-campaign.js, issue 32) found, each at its crash point,
 * made deterministic: the state a killed process leaves is built as it was found in the campaign's
 * database, then the store is given the signals it gets after a restart.
 *
 * 1. Killed inside Medusa's own cart completion (`POST /store/carts/:id/complete`, what storefronts
 *    call), after `createOrdersStep` and before `authorizePaymentSessionStep` (campaign seed 9,
 *    two-instance mode: the second instance was SIGKILLed there). The order exists, linked to the
 *    cart and its payment collection, the cart is completed, and no payment was recorded, while
 *    PayLater holds the shopper's money for the cart's live session. Before the fix, settlement
 *    called that payment "the shopper paid twice: the order holds another payment", listed it and
 *    refunded it automatically: an order with no money behind it (the checker printed
 *    `VIOLATION [order_is_paid] Medusa order order_01M8CJP4M0Z88GRN4TXMGFGSBB was placed with
 *    PayLater but PayLater holds no paid order of its amount for it ... seed 9`).
 * 2. Killed at `settle:after-authorized`: a declined link, then a new one on the same cart, paid; its
 *    settlement authorized the session in Medusa and the process died before completing the cart. The
 *    next signal (here the shopper's return) completes the cart with that payment, once. And killed at
 *    `settle:after-paid-recorded`: PayLater's success is on the row, nothing in Medusa; the next signal
 *    completes the cart without asking PayLater again.
 * 3. Killed inside Medusa's completion of a paid cart (the payment authorized and captured by our
 *    settlement) after the order was created and linked to its cart, before its link to the payment
 *    collection, the cart's completion and the capture's order transaction (CI's smoke on the merged
 *    main, seed 733588798: the process died while another request hit a crash point). Medusa never
 *    resumes it: completing the cart again returns the existing order and writes nothing. Before the
 *    fix the owner decision named the order past its bound and recorded it on the row, and the order
 *    showed no payment in Medusa (no collection, no capture), with nobody told.
 * 4. Killed inside Medusa's create of a session, after PayLater accepted the create and before the
 *    provider recorded its answer (`start:after-paylater-answered`; campaign seed 21562286): the row
 *    stays `starting`, Medusa's session names no attempt, and the shopper pays the link anyway.
 *    Settlement leaves a session alone while its create may still write it; the create was taken as
 *    dead only 5 minutes after the session's insert, so the paid row was not asked about for 5 minutes
 *    (the campaign's final check found it unasked). A create now counts as live only as long as its
 *    PayLater calls can take at the configured timeout, plus a margin for Medusa's last write.
 * 5. Medusa's completion of a paid cart failing after it authorized the payment (campaign seed
 *    41504454: the nemesis dropped every database connection while a completion was past
 *    `authorizePaymentSessionStep`). Medusa's rollback cancels the payment it authorized; PayLater has
 *    no void, so the money stayed at PayLater while Medusa's record of it was canceled: the cart's
 *    order then counted 0.00 paid, and the provider only logged "refund it". The provider now refuses
 *    the cancel of money PayLater holds and nothing went back of: the record stays live, as the money
 *    plan says, and the next signal places the order with it. The failure is injected through
 *    Medusa's own `orderCreated` hook, the one step after the authorization a store can add.
 * 6. Killed inside Medusa's own cart completion, as in 1, but on a cart PayLater never took money for
 *    (CI's smoke, seed 198548656: a Request to Pay declined, a new one declined too, the storefront's
 *    `cart.complete` in flight when another request's crash point killed the server). The order stood
 *    with its cart completed and no payment at all, and completing the cart again answered it as placed
 *    (`VIOLATION [order_is_paid]`). Past the bound the recovery job finishes the rollback Medusa's
 *    completion never ran (reconciliation/leftover-orders.ts): the order removed, its stock released,
 *    the cart open again for the shopper's next payment.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { useSeededStore } from "../../helpers/seeded-store"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { startCheckout } from "../../helpers/store-client"
import { ledgerForCart } from "../paylater-link/ledger"
import { ledgerModuleOf } from "../../../src/modules/paylater-ledger/resolve"
import { runScheduledJobs } from "../paylater-ledger/clocks"
import { unfinishedOrderKeyOf } from "../../../src/medusa-effects/finish-order"
import { OWNER_SETTLES_WITHIN_MS } from "../../../src/modules/paylater-ledger/whose-money"
import { whoseMoney } from "../../../src/medusa-effects/order-owner"
import { orderMoney } from "../paylater-link/order-money"
import { STUCK_AFTER_MS } from "../../../src/reconciliation/select"
import { halfMadeOrder as halfMadeOrderIn, orderWithoutPayment as orderWithoutPaymentIn } from "../paylater-crash-points/half-made"
import { createStockedVariant } from "../paylater-paid-without-order/stock"

/**
 * Carts whose Medusa completion fails right after it authorized the payment (the hook below);
 * `beside_order_of` (the cart's payment collection): another completion's order of the cart appears first (the campaign's half-made
 * order), so Medusa's rollback leaves the session as it is (compensatePaymentIfNeededStep skips a cart
 * that is an order) and only cancels the payment.
 */
const failAfterAuthorization = new Map<string, { beside_order_of: string | null; order_made?: string }>()
// Medusa types only its `validate` hook; `orderCreated` runs after the payment's authorization. One
// handler per hook and process: registered once, acting only on the carts a test names.
type OrderCreatedHook = {
  orderCreated: (handler: (input: { cart_id: string }, context: { container: MedusaContainer }) => Promise<void>) => void
}
;(completeCartWorkflow.hooks as unknown as OrderCreatedHook).orderCreated(async ({ cart_id }, { container }) => {
  const failure = failAfterAuthorization.get(cart_id)
  if (!failure) return
  if (failure.beside_order_of) failure.order_made = await orderWithoutPaymentIn(container, cart_id, failure.beside_order_of, "cart_link_only")
  throw new Error("test: the completion's database connection dropped after the payment was authorized")
})

export function crashPoints({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })

  const orderWithoutPayment = (cartId: string, collectionId: string, written: "whole" | "cart_link_only" = "whole") =>
    orderWithoutPaymentIn(getContainer(), cartId, collectionId, written)
  const halfMadeOrder = () => halfMadeOrderIn(getContainer(), store, seed, paylater())

  /** What Medusa's records say the order holds, read straight from the modules. */
  async function orderRecords(orderId: string, cartId: string) {
    const container = getContainer()
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: collections } = await query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } })
    const captures = await container.resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId, reference: "capture" })
    const [cart] = await container.resolve(Modules.CART).listCarts({ id: cartId }, { select: ["id", "completed_at"] })
    return { collections: collections.length, capture_transactions: captures.length, cart_completed: !!cart.completed_at }
  }

  it("killed after Medusa authorized the payment, before the cart's completion: the next signal places the order", async () => {
    // A declined link first, then a new session on the same cart (the shopper tried again).
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const first = started.session.ok ? started.session.data.session! : null
    expect(first).not.toBeNull()
    await paylater().declineLink(first!.id)
    await api.get(`/paylater/return/${first!.id}?outcome=failure`, { maxRedirects: 0, validateStatus: () => true })
    const again = await store.createPaymentSession(started.paymentCollection.id, PAYLATER_PROVIDER_ID)
    const session = again.ok ? again.data.session! : null
    expect(session).not.toBeNull()
    await paylater().approveLink(session!.id)
    // What the killed settlement left: Medusa authorized the session (the Payment and its capture exist), no order.
    await getContainer().resolve(Modules.PAYMENT).authorizePaymentSession(session!.id, {})
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 1 })

    const back = await api.get(`/paylater/return/${session!.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)
    const after = await ledgerForCart(getContainer(), started.cart.id)
    expect(after).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
    expect(back.headers.location).toContain(`/order/confirmed/${after.orderId}`)
    const row = await ledgerModuleOf(getContainer())!.findAttempt(session!.id)
    expect(row).toMatchObject({ state: "paid", order_id: after.orderId })
  })

  it("killed after PayLater's success was recorded, before Medusa's completion: the next signal places the order without asking again", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    expect(session).not.toBeNull()
    await paylater().approveLink(session!.id)
    // What the killed settlement left: PayLater's answer on the row, nothing in Medusa.
    const ledger = ledgerModuleOf(getContainer())!
    await ledger.recordStatus(session!.id, { code: 2, message: "Payment successful", signal: "webhook" })
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 0 })
    const statusCalls = () => paylater().requests().filter((r) => r.endpoint === "status" && r.status !== 401).length
    const asked = statusCalls()

    const back = await api.get(`/paylater/return/${session!.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)
    const after = await ledgerForCart(getContainer(), started.cart.id)
    expect(after).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
    expect(back.headers.location).toContain(`/order/confirmed/${after.orderId}`)
    // Medusa recorded the payment from the row: PayLater was not asked again.
    expect(statusCalls()).toBe(asked)
    expect(await ledger.findAttempt(session!.id)).toMatchObject({ state: "paid", order_id: after.orderId, payment_id: expect.any(String) })
  })

  it("killed inside Medusa's create after PayLater accepted it: the paid link is asked about and placed once the create's bound has passed", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    expect(session).not.toBeNull()
    // What the killed create left: Medusa's session as it inserted it (no attempt named, pending), the
    // write-ahead row without PayLater's answer. PayLater has the link; the shopper pays it.
    const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
    await pg.raw(`update payment_session set data = '{}'::jsonb where id = ?`, [session!.id])
    await pg.raw(`update paylater_attempt set state = 'starting', expires_at = null where paylater_order_id = ?`, [session!.id])
    await paylater().approveLink(session!.id)

    // At once: the create could still be running and would write its answer over whatever
    // settlement recorded, so nothing is recorded yet.
    await runScheduledJobs(getContainer())
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 0 })

    // Half a minute later (plus the 15 s the run above waited for the create) a create of this
    // configuration could still be running: its bound is the 3 s look-up, a 1.5 s client's worst
    // case and a minute for Medusa's last write, over 69 s with any number of attempts.
    await runScheduledJobs(getContainer(), 0.5)
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 0 })

    // Two minutes later none can.
    await runScheduledJobs(getContainer(), 2)
    const after = await ledgerForCart(getContainer(), started.cart.id)
    expect(after).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
    expect(await ledgerModuleOf(getContainer())!.findAttempt(session!.id)).toMatchObject({ state: "paid", order_id: after.orderId })
    expect(paylater().order(session!.id)!.refunds).toEqual([])
  })

  /** A paid link whose return meets Medusa's completion failing after it authorized the payment. */
  async function failedAfterAuthorization(failure: "alone" | "beside_order") {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    if (!session) throw new Error(`no session: ${JSON.stringify(started.session)}`)
    await paylater().approveLink(session.id)
    const failing = { beside_order_of: failure === "beside_order" ? started.paymentCollection.id : null } as { beside_order_of: string | null; order_made?: string }
    failAfterAuthorization.set(started.cart.id, failing)
    try {
      const back = await api.get(`/paylater/return/${session.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
      expect(back.status).toBe(303)
    } finally {
      failAfterAuthorization.delete(started.cart.id)
    }
    // Medusa's rollback asked to cancel the captured payment: refused, its record still live.
    const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id }, { select: ["id", "canceled_at", "captured_at"] })
    expect(payment).toMatchObject({ canceled_at: null })
    expect(payment.captured_at).toBeTruthy()
    return { started, session, payment, orderMade: failing.order_made ?? null }
  }

  it("Medusa's completion fails after authorizing and its rollback cancels the payment: refused (PayLater has no void); the money is held or listed, never dropped", async () => {
    const { started, session, payment } = await failedAfterAuthorization("alone")
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 1, captures: 1, refunds: 0 })
    await runScheduledJobs(getContainer(), Math.ceil(STUCK_AFTER_MS / 60_000) + 1)
    // Medusa's rollback then replaces the paid session with a new one (createPaymentSessionsWorkflow,
    // after its refund was refused as too early): no completion can take this money, so it is listed
    // as paid without an order. Should that session's create fail under load, the paid session stays
    // and the jobs place the order with the live payment. Never both, never neither.
    const after = await ledgerForCart(getContainer(), started.cart.id)
    const listed = (await ledgerModuleOf(getContainer())!.listPayLaterAttentions({ paylater_order_id: session.id, kind: "paid_without_order" })) as Array<{ status: string }>
    expect(after.orders + listed.length).toBe(1)
    if (after.orders) expect(await orderMoney(getContainer(), after.orderId!)).toMatchObject({ sessions: [session.id] })
    const [still] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id }, { select: ["id", "canceled_at"] })
    expect(still.canceled_at).toBeNull()
    expect(paylater().order(session.id)!.refunds).toEqual([])
  })

  it("the same beside another completion's order of the cart (campaign seed 41504454): the order gets the payment, counted paid, nothing refunded", async () => {
    const { started, session, payment, orderMade } = await failedAfterAuthorization("beside_order")
    expect(orderMade).toBeTruthy()
    // Past the owner decision's bound the jobs give the cart's order the payment Medusa kept live.
    await runScheduledJobs(getContainer(), Math.ceil(OWNER_SETTLES_WITHIN_MS / 60_000) + 1)
    await runScheduledJobs(getContainer(), Math.ceil(OWNER_SETTLES_WITHIN_MS / 60_000) + 2)
    const placed = await ledgerForCart(getContainer(), started.cart.id)
    expect(placed).toMatchObject({ orderId: orderMade, orders: 1, payments: 1, captures: 1, refunds: 0 })
    expect(await orderMoney(getContainer(), placed.orderId!)).toEqual({
      total: Number(paylater().order(session.id)!.amount),
      providers: [PAYLATER_PROVIDER_ID],
      sessions: [session.id],
    })
    expect(await ledgerModuleOf(getContainer())!.findAttempt(session.id)).toMatchObject({ state: "paid", order_id: placed.orderId, payment_id: payment.id })
    expect(paylater().order(session.id)!.refunds).toEqual([])
  })

  it("killed inside Medusa's completion after the order, before its payment: the order gets PayLater's payment, a person is told, nothing refunded", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    expect(session).not.toBeNull()
    await paylater().approveLink(session!.id)
    const orderId = await orderWithoutPayment(started.cart.id, started.paymentCollection.id)
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orderId, payments: 0 })

    // After the restart the shopper comes back (or the webhook, or reconciliation, arrives).
    const back = await api.get(`/paylater/return/${session!.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)

    const after = await ledgerForCart(getContainer(), started.cart.id)
    expect(after).toMatchObject({ orderId, orders: 1, payments: 1, captures: 1, refunds: 0 })
    const ledger = ledgerModuleOf(getContainer())!
    const row = await ledger.findAttempt(session!.id)
    expect(row).toMatchObject({ state: "paid", order_id: orderId })
    // Not listed as money without an order; a person is told the order was placed by a completion
    // that stopped (its stock reservations and confirmation may be missing).
    const listed = await ledger.listPayLaterAttentions({ paylater_order_id: session!.id })
    expect(listed.map((i: { kind: string; dedupe_key: string | null }) => [i.kind, i.dedupe_key])).toEqual([["mismatch", unfinishedOrderKeyOf(orderId)]])
    const transactions = await getContainer().resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId, reference: "capture" })
    expect(transactions).toHaveLength(1)
    expect(paylater().order(session!.id)!.refunds).toEqual([])
  })

  it("killed inside Medusa's own completion of a cart PayLater never took money for: past the bound the order is undone, its stock released, and paying again places one order", async () => {
    const container = getContainer()
    const stocked = await createStockedVariant(container, seed, 360)
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: stocked.variantId }, PAYLATER_PROVIDER_ID)
    const declined = started.session.ok ? started.session.data.session! : null
    expect(declined).not.toBeNull()
    await paylater().declineLink(declined!.id)
    await api.get(`/paylater/return/${declined!.id}?outcome=failure`, { maxRedirects: 0, validateStatus: () => true })
    const ledger = ledgerModuleOf(container)!
    expect(await ledger.findAttempt(declined!.id)).toMatchObject({ state: "declined" })
    // What the killed completion left (campaign seed 198548656): the order, linked, the cart completed,
    // its stock reserved, and no payment (the authorization never ran).
    const orderId = await orderWithoutPayment(started.cart.id, started.paymentCollection.id)
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const {
      data: [{ items: [item] }],
    } = await query.graph({ entity: "order", fields: ["items.id"], filters: { id: orderId } })
    const {
      data: [variant],
    } = await query.graph({ entity: "product_variant", fields: ["inventory_items.inventory_item_id"], filters: { id: stocked.variantId } })
    const inventory = container.resolve(Modules.INVENTORY)
    await inventory.createReservationItems([
      { line_item_id: item.id, inventory_item_id: variant.inventory_items[0].inventory_item_id, location_id: seed.stockLocationId, quantity: 1 },
    ])
    const reservations = () => inventory.listReservationItems({ line_item_id: item.id }, { select: ["id"] })
    expect(await reservations()).toHaveLength(1)

    // Inside the bound a completion of the cart could still be on its way to the authorization: left alone.
    await runScheduledJobs(container)
    expect(await orderRecords(orderId, started.cart.id)).toMatchObject({ collections: 1, cart_completed: true })

    // Past it the scheduled jobs finish the rollback the completion never ran, once.
    const minutes = Math.ceil(OWNER_SETTLES_WITHIN_MS / 60_000) + 1
    await runScheduledJobs(container, minutes, 2)
    expect(await ledgerForCart(container, started.cart.id)).toMatchObject({ orderId: null, orders: 0, payments: 0 })
    expect(await container.resolve(Modules.ORDER).listOrders({ id: orderId }, { select: ["id"] })).toEqual([])
    expect(await reservations()).toEqual([])
    expect(await orderRecords(orderId, started.cart.id)).toMatchObject({ collections: 0, cart_completed: false })

    // The shopper pays again on the same cart: one order, one payment, one capture, the stock reserved once.
    const again = await store.createPaymentSession(started.paymentCollection.id, PAYLATER_PROVIDER_ID)
    const session = again.ok ? again.data.session! : null
    expect(session).not.toBeNull()
    await paylater().approveLink(session!.id)
    const back = await api.get(`/paylater/return/${session!.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)
    const after = await ledgerForCart(container, started.cart.id)
    expect(after).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
    expect(after.orderId).not.toBe(orderId)
    expect(back.headers.location).toContain(`/order/confirmed/${after.orderId}`)
    expect(paylater().order(declined!.id)!.refunds).toEqual([])
  })

  it("killed inside Medusa's completion between the order's cart link and its payment: past the bound the order gets its payment's records, a person is told, nothing refunded", async () => {
    const { started, session, orderId } = await halfMadeOrder()
    expect(await orderRecords(orderId, started.cart.id)).toEqual({ collections: 0, capture_transactions: 0, cart_completed: false })

    // The shopper's return after the restart is shown the cart's order; whose payment it holds
    // cannot be told yet (a completion could still be writing it), so nothing is written.
    const back = await api.get(`/paylater/return/${session!.id}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)
    expect(back.headers.location).toContain(`/order/confirmed/${orderId}`)
    const ledger = ledgerModuleOf(getContainer())!
    expect(await ledger.findAttempt(session!.id)).toMatchObject({ state: "paid", order_id: null })
    expect(await orderRecords(orderId, started.cart.id)).toEqual({ collections: 0, capture_transactions: 0, cart_completed: false })

    // Past the bound the scheduled jobs find it without any other signal, and finish it once.
    const minutes = Math.ceil(OWNER_SETTLES_WITHIN_MS / 60_000) + 1
    await runScheduledJobs(getContainer(), minutes)
    await runScheduledJobs(getContainer(), minutes + 1, 2)

    expect(await orderRecords(orderId, started.cart.id)).toEqual({ collections: 1, capture_transactions: 1, cart_completed: true })
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orderId, orders: 1, payments: 1, captures: 1, refunds: 0 })
    const row = await ledger.findAttempt(session!.id)
    expect(row).toMatchObject({ state: "paid", order_id: orderId })
    expect(row!.payment_id).toBeTruthy()
    const items = await ledger.listPayLaterAttentions({ paylater_order_id: session!.id })
    expect(items.map((i: { kind: string; dedupe_key: string | null; status: string }) => [i.kind, i.dedupe_key, i.status])).toEqual([
      ["mismatch", unfinishedOrderKeyOf(orderId), "open"],
    ])
    expect(paylater().order(session!.id)!.refunds).toEqual([])
  })

  it("the same half-made order decided by three at once past the bound: finished exactly once", async () => {
    const { started, session, orderId } = await halfMadeOrder()
    const ledger = ledgerModuleOf(getContainer())!
    const row = await ledger.findAttempt(session!.id)
    await ledger.linkAttempt(session!.id, { payment_collection_id: started.paymentCollection.id, cart_id: started.cart.id })

    // The job, a shopper's return and the admin's list, all deciding at once after the bound.
    const later = new Date(Date.now() + OWNER_SETTLES_WITHIN_MS + 60_000)
    const owners = await Promise.all([1, 2, 3].map(() => whoseMoney(getContainer(), row!, later)))
    expect(owners.map((o) => [o.owner, (o as { order_id?: string }).order_id])).toEqual([
      ["this_order", orderId],
      ["this_order", orderId],
      ["this_order", orderId],
    ])
    expect(await orderRecords(orderId, started.cart.id)).toEqual({ collections: 1, capture_transactions: 1, cart_completed: true })
    const items = await ledger.listPayLaterAttentions({ paylater_order_id: session!.id })
    expect(items.map((i: { kind: string }) => i.kind)).toEqual(["mismatch"])
    expect(await ledger.findAttempt(session!.id)).toMatchObject({ order_id: orderId })
  })
}

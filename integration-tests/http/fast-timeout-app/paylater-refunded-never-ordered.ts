/**
 * Money PayLater gave back is never an order's, whichever road completes the cart, and the shopper
 * whose money came back can pay again. Black box, over real HTTP and the sandbox: a link is paid
 * while PayLater is not offered in the region (so the cart cannot become an order), the payment is
 * listed and refunded (automatically in full, or in part from Settings → PayLater), PayLater is
 * offered again, and then the storefront's own `POST /store/carts/:id/complete` (Medusa's route,
 * not the plugin's) is tried: no order. A new PayLater payment on the same cart places the order,
 * with that new payment; so does another method's, through Medusa's own completion.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { updateRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { useSeededStore } from "../../helpers/seeded-store"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { PAYLATER_PROVIDER_ID, SYSTEM_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { runPaidWithoutOrderRefunds, sendRefund } from "../../../src/paid-without-order/auto-refund"
import { ledgerModuleOf } from "../../../src/modules/paylater-ledger/resolve"
import { runRecovery } from "../../../src/job-runs/run-jobs"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { orderMoney } from "../paylater-link/order-money"
import { decideOnLink, followToApp } from "../paylater-link/shopper"

const MINUTE = 60_000
const STOREFRONT = process.env.STOREFRONT_URL ?? "http://localhost:8000"
const NOT_PLACED = `${STOREFRONT}/checkout?step=payment&paylater_error=paid_not_placed`

export function refundedNeverOrdered({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  const keep = { validateStatus: () => true }

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
    paylater().setWebhookUrl(null)
  })

  async function regionProviders(): Promise<string[]> {
    const { data } = await getContainer()
      .resolve(ContainerRegistrationKeys.QUERY)
      .graph({ entity: "region", fields: ["id", "payment_providers.id"], filters: { id: seed.regionId } })
    return (data[0]?.payment_providers ?? []).map((p: { id: string }) => p.id)
  }

  async function offerPayLater(offered: boolean, all: string[]): Promise<void> {
    const providers = offered ? all : all.filter((id) => id !== PAYLATER_PROVIDER_ID)
    await updateRegionsWorkflow(getContainer()).run({ input: { selector: { id: seed.regionId }, update: { payment_providers: providers } } })
  }

  const attention = async () =>
    (await api.get(`/admin/paylater/attention?status=open`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>

  /** Paid at PayLater while the region does not offer it: the return cannot place the order. */
  async function paidWhileNotOffered() {
    const all = await regionProviders()
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    const location = await decideOnLink(String(session.data.payment_link_url), "approve")
    await offerPayLater(false, all)
    const back = await followToApp(api, location)
    expect(back).toMatchObject({ status: 303, location: NOT_PLACED })
    const [item] = await eventually(
      async () => (await attention()).filter((i) => i.kind === "paid_without_order" && i.session_id === session.id),
      (items) => items.length > 0
    )
    return { all, cartId: started.cart.id, collectionId: started.paymentCollection.id, sessionId: session.id, item, returnAgain: () => followToApp(api, location) }
  }

  /** A new PayLater payment on the same cart, approved, and the shopper's return. */
  async function payAgain(collectionId: string) {
    const again = await store.createPaymentSession(collectionId, PAYLATER_PROVIDER_ID)
    expect(again).toMatchObject({ ok: true })
    const session = again.ok ? again.data.session! : null
    const location = await decideOnLink(String(session!.data.payment_link_url), "approve")
    return { sessionId: session!.id, back: await followToApp(api, location) }
  }

  /** What Medusa counts as the order's money (paylater-link/order-money.ts), as this suite compares it. */
  const moneyOf = async (orderId: string) => {
    const money = await orderMoney(getContainer(), orderId)
    return { total: money.total, sessions: money.sessions }
  }

  it("refunded in full automatically: Medusa's own cart completion places no order, and paying again places it with the new payment", async () => {
    const paid = await paidWhileNotOffered()
    paylater().advanceClock(12 * MINUTE)
    const runs = await runPaidWithoutOrderRefunds(getContainer(), { now: new Date(Date.now() + 12 * MINUTE) })
    expect(runs.filter((r) => r.outcome === "refunded")).toHaveLength(1)
    expect(paylater().order(paid.sessionId)?.refunds).toEqual([expect.objectContaining({ amount: paid.item.amount, full: true })])

    await offerPayLater(true, paid.all)
    // The storefront's "Place order" (or anyone holding the cart id): Medusa's route, not ours.
    const completed = await store.completeCart(paid.cartId)
    expect(completed.type).not.toBe("order")
    expect(await ledgerForCart(getContainer(), paid.cartId)).toMatchObject({ orders: 0 })
    expect((await paid.returnAgain()).location).toBe(NOT_PLACED)

    // The shopper whose money came back pays again: no "already paid" refusal, and the order is placed with the new payment.
    const again = await payAgain(paid.collectionId)
    expect(again.back.status).toBe(303)
    const placed = await ledgerForCart(getContainer(), paid.cartId)
    expect(placed.orders).toBe(1)
    expect(again.back.location).toBe(`${STOREFRONT}/order/confirmed/${placed.orderId}`)
    expect(await moneyOf(placed.orderId!)).toEqual({ total: Number(paid.item.amount), sessions: [again.sessionId] })
    // Only the first payment went back, once.
    expect(paylater().order(paid.sessionId)?.refunds).toHaveLength(1)
    expect(paylater().order(again.sessionId)?.refunds ?? []).toHaveLength(0)
  })

  it("refunded in full automatically: the shopper then pays with another method, and Medusa's own completion places the order with that payment", async () => {
    const paid = await paidWhileNotOffered()
    paylater().advanceClock(12 * MINUTE)
    await runPaidWithoutOrderRefunds(getContainer(), { now: new Date(Date.now() + 12 * MINUTE) })
    expect(paylater().order(paid.sessionId)?.refunds).toEqual([expect.objectContaining({ full: true })])
    await offerPayLater(true, paid.all)

    // The storefront's payment step with another provider, then its "Place order".
    expect(await store.createPaymentSession(paid.collectionId, SYSTEM_PROVIDER_ID)).toMatchObject({ ok: true })
    const completed = await store.completeCart(paid.cartId)
    expect(completed.type).toBe("order")
    const orderId = (completed as { order: { id: string } }).order.id
    // The order holds the other method's payment and nothing of the refunded PayLater money.
    const [orderPayment] = await getContainer()
      .resolve(Modules.PAYMENT)
      .listPayments({ payment_collection_id: paid.collectionId, provider_id: SYSTEM_PROVIDER_ID } as never, { select: ["id", "canceled_at"] })
    expect(orderPayment).toMatchObject({ canceled_at: null })
    expect((await orderMoney(getContainer(), orderId)).providers).not.toContain(PAYLATER_PROVIDER_ID)
    // Medusa's record of the PayLater payment follows PayLater's: taken, and given back in full.
    const [refundedPayment] = await getContainer()
      .resolve(Modules.PAYMENT)
      .listPayments({ payment_collection_id: paid.collectionId, provider_id: PAYLATER_PROVIDER_ID } as never, { relations: ["captures", "refunds"] })
    expect(refundedPayment.captures!.map((c) => Number(c.amount))).toEqual([Number(paid.item.amount)])
    expect(refundedPayment.refunds!.map((r) => Number(r.amount))).toEqual([Number(paid.item.amount)])
    const [row] = await ledgerModuleOf(getContainer())!.attemptsOfSession(paid.sessionId)
    expect(row).toMatchObject({ state: "paid", order_id: null })
    expect(await ledgerForCart(getContainer(), paid.cartId)).toMatchObject({ orderId })
    expect(paylater().order(paid.sessionId)?.refunds).toHaveLength(1)
    expect(await attention()).toEqual([])
  })

  it("refunded in part from Settings → PayLater: still never an order with that payment, and paying again works", async () => {
    const paid = await paidWhileNotOffered()
    paylater().advanceClock(12 * MINUTE)
    const refunded = await api.post(`/admin/paylater/attention/${paid.item.id}/refund`, { amount: "100.00" }, { ...admin, ...keep })
    expect(refunded.status).toBe(200)

    await offerPayLater(true, paid.all)
    const completed = await store.completeCart(paid.cartId)
    expect(completed.type).not.toBe("order")
    expect(await ledgerForCart(getContainer(), paid.cartId)).toMatchObject({ orders: 0 })

    const again = await payAgain(paid.collectionId)
    const placed = await ledgerForCart(getContainer(), paid.cartId)
    expect(placed.orders).toBe(1)
    expect(again.back.location).toBe(`${STOREFRONT}/order/confirmed/${placed.orderId}`)
    expect(await moneyOf(placed.orderId!)).toEqual({ total: Number(paid.item.amount), sessions: [again.sessionId] })
  })

  it("refunded by a process that died before Medusa's records followed: completion still refuses it, and the recovery job converges Medusa's session", async () => {
    const paid = await paidWhileNotOffered()
    paylater().advanceClock(12 * MINUTE)
    // PayLater accepts the refund; the process dies before the plan is applied (Medusa's session stays authorized).
    const ledger = ledgerModuleOf(getContainer())!
    const [item] = await ledger.listPayLaterAttentions({ id: paid.item.id })
    await sendRefund(getContainer(), ledger, item as never)
    const sessionStatus = async () =>
      (await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: paid.sessionId }, { select: ["status"] }))[0]?.status
    expect(await sessionStatus()).toBe("authorized")

    await offerPayLater(true, paid.all)
    const completed = await store.completeCart(paid.cartId)
    expect(completed.type).not.toBe("order")
    expect(JSON.stringify(completed)).toMatch(/refunded/)
    expect(await ledgerForCart(getContainer(), paid.cartId)).toMatchObject({ orders: 0 })

    await runRecovery(getContainer())
    expect(await sessionStatus()).toBe("canceled")
    await runRecovery(getContainer())
    expect(await sessionStatus()).toBe("canceled")

    const again = await payAgain(paid.collectionId)
    const placed = await ledgerForCart(getContainer(), paid.cartId)
    expect(placed.orders).toBe(1)
    expect(again.back.location).toBe(`${STOREFRONT}/order/confirmed/${placed.orderId}`)
    expect(paylater().order(paid.sessionId)?.refunds).toHaveLength(1)
  })
}

/**
 * Money PayLater took while the store has no order for it, over real HTTP, a real PostgreSQL and the
 * sandbox with its fault injection and virtual clock: the item sells out between the payment and
 * the shopper's return, so the cart cannot become an order. The shopper lands on the failure page
 * as "paid, not placed" (never "declined"); the payment is listed once on Settings → PayLater; it is
 * refunded in full exactly once after PayLater's refund window and never before, also when the job
 * runs twice at once; a lost refund answer stops every further try; and a payment on a link that
 * updatePayment replaced is found by reconciliation and handled the same way.
 */
import { atStoreTime } from "../../helpers/store-clock"
import { useSeededStore } from "../../helpers/seeded-store"
import { Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { PAYLATER_LEDGER_MODULE, type PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger"
import { runPaidWithoutOrderRefunds } from "../../../src/paid-without-order/auto-refund"
import { flagPaidWithoutOrder } from "../../../src/paid-without-order/listing"
import { payLaterReconcileWorkflow } from "../../../src/workflows/paylater-reconcile/workflow"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { orderFigures } from "../paylater-link/order-figures"
import { decideOnLink, followToApp } from "../paylater-link/shopper"
import { payThenSellOut } from "../paylater-paid-without-order/sold-out"
import { createStockedVariant, type StockedVariant } from "../paylater-paid-without-order/stock"

// The app and the sandbox: fast-timeout-app.spec.ts (a lost answer costs 1.5 s, not 15; tokens
// outlive the sandbox clock's jump past the refund window).
const MINUTE = 60_000
const STOREFRONT = process.env.STOREFRONT_URL ?? "http://localhost:8000"

export function paidWithoutOrder({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  let stocked: StockedVariant
  const keep = { validateStatus: () => true }

  beforeAll(async () => {
    stocked = await createStockedVariant(getContainer(), seed, 350)
  })

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
    paylater().setWebhookUrl(null)
    await stocked.setStock(1)
  })

  const ledgerModule = () => getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
  const attention = async (status = "open") =>
    (await api.get(`/admin/paylater/attention?status=${status}`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>
  const refundsAt = (orderId: string) => paylater().order(orderId)?.refunds ?? []
  const medusaRefunds = async (paymentId: string) =>
    (await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: paymentId })).map((r) => Number(r.amount))
  const run = (now: Date) => runPaidWithoutOrderRefunds(getContainer(), { now })
  const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE)

  const paidButSoldOut = () => payThenSellOut(api, store, seed, stocked)

  async function listedItem(sessionId: string) {
    const [item] = await eventually(
      async () => (await attention()).filter((i) => i.kind === "paid_without_order" && i.session_id === sessionId),
      (items) => items.length > 0
    )
    return item
  }

  it("sends the shopper to 'paid, not placed', lists the payment once, and refunds it exactly once after the window", async () => {
    const { sessionId, cartId, back, returnAgain } = await paidButSoldOut()
    const notPlaced = `${STOREFRONT}/checkout?step=payment&paylater_error=paid_not_placed`
    expect(back).toMatchObject({ status: 303, location: notPlaced })
    const ledger = await ledgerForCart(getContainer(), cartId)
    expect(ledger).toMatchObject({ orders: 0, payments: 1, refunds: 0 })

    const item = await listedItem(sessionId)
    expect(item).toMatchObject({
      kind: "paid_without_order",
      amount: "360.00",
      paylater_order_id: sessionId,
      cart_id: cartId,
      can_refund: true,
      refund_state: "scheduled",
      refund_tries: 0,
    })
    expect(item.summary).toMatch(/refunded in full automatically from/)

    // Medusa's failed completion deleted the paid session (and tried a refund itself, too early for
    // PayLater). The shopper reloads; reconciliation finds the deleted session paid; other roads
    // announce it again, some at the same moment: still one item, and not "orphaned".
    expect((await returnAgain()).location).toBe(notPlaced)
    // A waiting screen (Request to Pay) polling the session hears the same. Final where Medusa's rollback
    // deleted the paid session (no later try can place the order with this money); `retrying` where
    // its engine gave the run up under load and the paid session was kept (tried again).
    const [live] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
    const kept = !!live && live.status !== "canceled"
    expect(await store.get(`/store/paylater/payment-sessions/${sessionId}`)).toEqual({
      ok: true,
      status: 200,
      data: kept ? { status: "paid_not_placed", retrying: true } : { status: "paid_not_placed" },
    })
    const { result } = await payLaterReconcileWorkflow(getContainer()).run({ input: {} })
    // Its ledger row says paid already (listed above): the run does not ask PayLater about it again.
    expect(result.results.filter((r) => r.id === sessionId)).toEqual([])
    await Promise.all([1, 2, 3].map(() => flagPaidWithoutOrder(getContainer(), sessionId, { signal: "webhook" })))
    expect((await attention()).map((i) => i.kind)).toEqual(["paid_without_order"])

    // Before PayLater's refund window: nothing is sent.
    expect(await run(new Date())).toEqual([])
    expect(refundsAt(sessionId)).toHaveLength(0)

    // After it: two runs at once, one refund, in full.
    paylater().advanceClock(12 * MINUTE)
    const runs = (await Promise.all([run(later(12)), run(later(12))])).flat()
    expect(runs.filter((r) => r.outcome === "refunded")).toHaveLength(1)
    expect(refundsAt(sessionId)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: sessionId })
    expect(await medusaRefunds(payment.id)).toEqual([360])
    expect(await attention()).toEqual([])
    expect((await attention("resolved")).find((i) => i.id === item.id)).toMatchObject({
      resolution: "refunded",
      refund_state: "refunded",
    })

    // Later runs send nothing more.
    expect(await run(later(120))).toEqual([])
    expect(refundsAt(sessionId)).toHaveLength(1)

    // Back in stock, the refunded payment still never becomes an order.
    await stocked.setStock(1)
    expect((await returnAgain()).location).toBe(notPlaced)
    // Nor through the storefront's own completion of the cart (Medusa's, not our return route).
    expect(await store.completeCart(cartId)).not.toMatchObject({ type: "order" })
    expect(await ledgerForCart(getContainer(), cartId)).toMatchObject({ orders: 0 })
  })

  it("sold out and back after PayLater's refund window: the money goes back once, by Medusa's own rollback or the list; the list records it refunded, nothing is sent again", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: stocked.variantId }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const sessionId = started.session.data.session.id
    const location = await decideOnLink(String(started.session.data.session.data.payment_link_url), "approve")
    await stocked.setStock(0)
    paylater().advanceClock(12 * MINUTE)
    expect((await followToApp(api, location)).location).toMatch(/paylater_error=paid_not_placed/)
    // Medusa's failed completion refunds the captured payment in its rollback, which PayLater accepts
    // past its window. Under load Medusa's engine may abandon that run before its rollback
    // (medusa-effects/abandoned-completion.ts): then the list's automatic refund, due at once past
    // the window, sends it. Either way one refund, in full, and the list says so.
    const rolledBack = refundsAt(sessionId).length > 0
    const listedItems = () => ledgerModule().listPayLaterAttentions({ paylater_order_id: sessionId, kind: "paid_without_order" })
    await eventually(listedItems, (items) => items.length > 0)
    const runs = await run(later(12))
    expect(runs.filter((r) => r.outcome === "refunded")).toHaveLength(rolledBack ? 0 : 1)
    expect(refundsAt(sessionId)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])

    // Listed as what it is: refunded in full, closed, nothing for a person or the rule to send. The
    // item is written, then resolved by the money plan's list step (two writes: a loaded machine once
    // showed the first alone, open with refund_state "refunded"); waited for until it is closed.
    const [item] = await eventually(listedItems, (items) => items.some((listed) => listed.status === "resolved"))
    expect(item).toMatchObject({ status: "resolved", resolution: "refunded", refund_state: "refunded", refund_due_at: null })
    if (rolledBack) {
      expect(item).toMatchObject({ resolution_note: "Refunded 360.00 QAR in full at PayLater." })
      expect(item.summary).toMatch(/refunded it in full already; nothing more is sent\.$/)
    }
    expect(await attention()).toEqual([])
    expect(await run(later(12))).toEqual([])
    expect(await run(later(120))).toEqual([])
    expect(refundsAt(sessionId)).toHaveLength(1)
  })

  it("is listed from PayLater's webhook alone when the shopper never comes back", async () => {
    paylater.pointWebhooksAt(api, "/paylater/webhooks")
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: stocked.variantId }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    if (!session) throw new Error("no session")
    await stocked.setStock(0)
    await decideOnLink(String(session.data.payment_link_url), "approve")
    const item = await listedItem(session.id)
    expect(item).toMatchObject({ amount: "360.00", detail: expect.objectContaining({ signal: "webhook" }) })
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, payments: 1 })
  })

  /**
   * Paid, sold out, then paid again with a new session on the cart's collection. Medusa's rollback of
   * the failed completion makes it (refundPaymentAndRecreatePaymentSessionWorkflow: its refund is
   * refused as too early, then createPaymentSessionsWorkflow, which deletes the collection's other
   * sessions); under load Medusa's engine may abandon that run before its rollback
   * (medusa-effects/abandoned-completion.ts), so the same workflow is run here either way.
   */
  async function paidTwice() {
    const { sessionId, cartId } = await paidButSoldOut()
    const item = await listedItem(sessionId)
    await stocked.setStock(1)
    const { result: fresh } = await createPaymentSessionsWorkflow(getContainer()).run({
      input: { payment_collection_id: item.payment_collection_id, provider_id: PAYLATER_PROVIDER_ID },
    })
    expect(fresh.id).not.toBe(sessionId)
    const back = await followToApp(api, await decideOnLink(String(fresh.data!.payment_link_url), "approve"))
    const { orderId } = await ledgerForCart(getContainer(), cartId)
    expect(orderId).toBeTruthy()
    expect(back.location).toBe(`${STOREFRONT}/order/confirmed/${orderId}`)
    return { sessionId, item, fresh, orderId: orderId! }
  }

  /** The order card's entry for the attempt of `sessionId`. */
  const cardAttempt = async (orderId: string, sessionId: string) => {
    const activity = await api.get(`/admin/paylater/orders/${orderId}/activity`, { ...admin, ...keep })
    expect(activity.status).toBe(200)
    return (activity.data.activity.attempts as Array<Record<string, any>>).find((a) => a.session_id === sessionId)
  }

  it("still refunds the first payment when the cart is then paid and ordered with a new one (paid twice)", async () => {
    const { sessionId, item, fresh, orderId } = await paidTwice()
    // Before the refund, the card says what Settings → PayLater says: listed, waiting for the rule or a person.
    expect(await cardAttempt(orderId, sessionId)).toMatchObject({
      outcome: "paid_elsewhere",
      refund: null,
      listing: { kind: "paid_without_order", status: "open", resolution: null },
    })

    paylater().advanceClock(12 * MINUTE)
    expect(await run(later(12))).toEqual([{ id: item.id, outcome: "refunded" }])
    expect(refundsAt(sessionId)).toHaveLength(1)
    expect(refundsAt(fresh.id)).toHaveLength(0)

    // The card tells the whole story (issue 34): refunded, how much, when, by the rule.
    const card = await cardAttempt(orderId, sessionId)
    expect(card).toMatchObject({
      outcome: "paid_elsewhere",
      refund: { amount: item.amount, by: "rule", actor: null, at: expect.any(String) },
      listing: { kind: "paid_without_order", status: "resolved", resolution: "refunded" },
    })
    expect(card!.refund.note).toMatch(/automatically/)
    expect(await cardAttempt(orderId, fresh.id)).toMatchObject({ outcome: "holds_order_money", refund: null, listing: null })
  })

  it("shows on the order card who refunded the extra payment from Settings → PayLater", async () => {
    const { sessionId, item, orderId } = await paidTwice()
    paylater().advanceClock(12 * MINUTE)
    const figures = () => orderFigures(api, admin, getContainer(), orderId)
    const before = await figures()
    expect(before).toMatchObject({ total: 360, pending_difference: 0, credit_lines: [], transactions: 360 })
    // The order page's Refund of the extra payment (the order holds the other PayLater payment): refused, nothing sent.
    const fromOrderPage = await api.post(`/admin/payments/${item.payment_id}/refund`, {}, { ...admin, ...keep })
    expect(fromOrderPage.status).toBe(400)
    expect(fromOrderPage.data.message).toMatch(/holds another payment, so this PayLater payment is an extra payment .*Settings → PayLater/)
    expect(refundsAt(sessionId)).toEqual([])
    const refunded = await api.post(`/admin/paylater/attention/${item.id}/refund`, {}, { ...admin, ...keep })
    expect(refunded.status).toBe(200)
    expect(refundsAt(sessionId)).toHaveLength(1)
    // The extra money went back; the order's own money, as Medusa shows it, did not move.
    expect(await figures()).toEqual(before)
    expect(await cardAttempt(orderId, sessionId)).toMatchObject({
      refund: { amount: item.amount, by: "person", actor: admin.email, at: expect.any(String) },
      listing: { kind: "paid_without_order", status: "resolved", resolution: "refunded" },
    })
  })

  it("lists a link paid after its session was deleted as paid without an order, and refunds it once after the window", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    if (!session) throw new Error("no session")
    // The cart changes: Medusa deletes the session, the link stays payable at PayLater.
    expect((await store.post(`/store/carts/${started.cart.id}/line-items`, { variant_id: seed.variants.standard.id, quantity: 1 })).ok).toBe(true)
    await decideOnLink(String(session.data.payment_link_url), "approve")
    await payLaterReconcileWorkflow(getContainer()).run({ input: {} })
    // Its collection was named by the store request that created it: the cart is known.
    expect(await attention()).toEqual([
      expect.objectContaining({ kind: "paid_without_order", paylater_order_id: session.id, amount: "360.00", cart_id: started.cart.id, payment_id: null, can_refund: true }),
    ])
    expect(await run(new Date())).toEqual([])
    paylater().advanceClock(12 * MINUTE)
    expect(await run(later(12))).toEqual([expect.objectContaining({ outcome: "refunded" })])
    expect(await run(later(60))).toEqual([])
    expect(refundsAt(session.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
  })

  it("a refund PayLater refuses as too early is tried again later, and goes through once the window is open", async () => {
    const { sessionId } = await paidButSoldOut()
    await listedItem(sessionId)
    // Our clock says due, PayLater's does not yet: a clear refusal, nothing paid out.
    expect(await run(later(12))).toEqual([expect.objectContaining({ outcome: "retry_later" })])
    expect(refundsAt(sessionId)).toHaveLength(0)
    const [waiting] = await attention()
    expect(waiting).toMatchObject({ refund_state: "scheduled", refund_tries: 1, refund_error: expect.stringMatching(/10 minutes/) })
    // Not before its backoff.
    expect(await run(later(12))).toEqual([])
    paylater().advanceClock(15 * MINUTE)
    expect(await run(later(15))).toEqual([expect.objectContaining({ outcome: "refunded" })])
    expect(refundsAt(sessionId)).toHaveLength(1)
  })

  it("a refund whose answer is lost is 'outcome unknown': listed for a person, never sent again", async () => {
    const { sessionId } = await paidButSoldOut()
    const item = await listedItem(sessionId)
    paylater().advanceClock(12 * MINUTE)
    // PayLater pays it out; its answer never arrives.
    paylater().fault({ endpoint: "refund", mode: "timeout", commit: true })
    expect(await run(later(12))).toEqual([{ id: item.id, outcome: "outcome_unknown" }])
    expect(refundsAt(sessionId)).toHaveLength(1)

    const open = await attention()
    expect(open.find((i) => i.id === item.id)).toMatchObject({
      summary: expect.stringMatching(/no answer from PayLater .* nothing is sent again automatically/),
      refund_state: "outcome_unknown",
      refund_tries: 1,
    })
    expect(open.find((i) => i.kind === "refund_outcome_unknown")).toMatchObject({ amount: "360.00", paylater_order_id: sessionId })

    expect(await run(later(24 * 60))).toEqual([])
    // The list's Refund is refused by the refund guard too.
    const again = await api.post(`/admin/paylater/attention/${item.id}/refund`, {}, { ...admin, ...keep })
    expect(again.status).toBe(400)
    expect(again.data.message).toMatch(/outcome is unknown/)
    expect(refundsAt(sessionId)).toHaveLength(1)
    // Ours last, never another. Before it, Medusa's own too-early try (refused by PayLater, nothing paid
    // out) when its rollback of the completion got that far: under load Medusa's workflow engine can end
    // the failed completion sooner ("Updating Status from \"ok\" to \"temp_failure\" is not allowed"),
    // and then nothing of Medusa's is tried.
    const attempts = await ledgerModule().listPayLaterRefundAttempts({ paylater_order_id: sessionId }, { order: { sent_at: "ASC" } })
    expect([["unknown"], ["failed", "unknown"]]).toContainEqual(attempts.map((a) => a.status))
  })

  it("money PayLater gave back in full by another road is not refunded again from the list: 409, the item closed as refunded", async () => {
    const { sessionId } = await paidButSoldOut()
    const item = await listedItem(sessionId)
    paylater().advanceClock(12 * MINUTE)
    // Another road refunds it in full (Medusa's payment module, as an operator's tooling would), leaving the item open.
    const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: sessionId })
    await getContainer().resolve(Modules.PAYMENT).refundPayment({ payment_id: payment.id, amount: "360.00" })
    expect(refundsAt(sessionId)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect((await ledgerModule().listPayLaterAttentions({ id: item.id }))[0]).toMatchObject({ status: "open" })

    const again = await api.post(`/admin/paylater/attention/${item.id}/refund`, {}, { ...admin, ...keep })
    expect(again.status).toBe(409)
    expect(again.data.message).toMatch(/refunded this payment in full already; nothing more was refunded/)
    expect(refundsAt(sessionId)).toHaveLength(1)
    expect((await ledgerModule().listPayLaterAttentions({ id: item.id }))[0]).toMatchObject({
      status: "resolved",
      resolution: "refunded",
      resolution_note: "Refunded 360.00 QAR in full at PayLater.",
    })
  })

  it("a payment on a link that updatePayment replaced is found by reconciliation and refunded once", async () => {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session! : null
    if (!session) throw new Error("no session")
    const oldLink = String(session.data.payment_link_url)
    const payment = getContainer().resolve(Modules.PAYMENT)
    const updated = await payment.updatePaymentSession({ id: session.id, amount: 400, currency_code: "qar", data: session.data })
    expect(updated.data).toMatchObject({ paylater_order_id: `${session.id}-2`, amount: "400.00" })

    // The shopper pays the old link anyway (an older tab).
    await decideOnLink(oldLink, "approve")
    expect(paylater().order(session.id)!.status).toBe(2)

    // updatePayment asked PayLater about the old link seconds ago: its next question is due 2 minutes later.
    const { result } = await atStoreTime(2 * MINUTE, () => payLaterReconcileWorkflow(getContainer()).run({ input: {} }))
    expect(result.results).toEqual(expect.arrayContaining([expect.objectContaining({ id: session.id, kind: "attempt", outcome: "paid_without_order" })]))
    const listed = (await attention()).filter((i) => i.kind === "paid_without_order")
    expect(listed).toEqual([
      expect.objectContaining({
        paylater_order_id: session.id,
        session_id: session.id,
        amount: "360.00",
        payment_id: null,
        detail: expect.objectContaining({ superseded_by: `${session.id}-2` }),
        refund_state: "scheduled",
      }),
    ])
    // Asked once: the next run finds nothing new.
    await atStoreTime(4 * MINUTE, () => payLaterReconcileWorkflow(getContainer()).run({ input: {} }))
    expect((await attention()).filter((i) => i.kind === "paid_without_order")).toHaveLength(1)

    expect(await run(new Date())).toEqual([])
    // The plan counts PayLater's refund window from when PayLater told us it was paid: the run at
    // store time +2 min, so the refund is due 13 minutes from now.
    paylater().advanceClock(14 * MINUTE)
    expect(await run(later(14))).toEqual([expect.objectContaining({ outcome: "refunded" })])
    expect(await run(later(60))).toEqual([])
    expect(refundsAt(session.id)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(refundsAt(`${session.id}-2`)).toHaveLength(0)
  })
}

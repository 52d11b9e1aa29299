/**
 * `paidWithoutOrder: "hold"`: a payment PayLater took for a cart that could not become an order is
 * listed on Settings → PayLater and never refunded automatically; the operator's Refund on the list
 * refunds it once. The shopper's page is the same "paid, not placed".
 */
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { runPaidWithoutOrderRefunds } from "../../../src/paid-without-order/auto-refund"
import { createAdminUser, startCheckout } from "../../helpers/store-client"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { runScheduledJobs } from "../paylater-ledger/clocks"
import { decideOnLink } from "../paylater-link/shopper"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { payThenSellOut } from "../paylater-paid-without-order/sold-out"
import { createStockedVariant } from "../paylater-paid-without-order/stock"

const MINUTE = 60_000

export function soldOutHeld({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  const keep = { validateStatus: () => true }

  beforeAll(async () => {
    paylater().setWebhookUrl(null)
  })

  it("lists the payment for a person, refunds nothing by itself, and refunds once from the list", async () => {
    const admin = await createAdminUser(api, getContainer())
    const stocked = await createStockedVariant(getContainer(), seed, 350)
    const { sessionId, cartId, back } = await payThenSellOut(api, store, seed, stocked)
    expect(back.location).toMatch(/paylater_error=paid_not_placed/)

    const attention = async (status = "open") =>
      (await api.get(`/admin/paylater/attention?status=${status}`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>
    const [item] = await eventually(attention, (items) => items.length > 0)
    expect(item).toMatchObject({
      kind: "paid_without_order",
      amount: "360.00",
      can_refund: true,
      refund_state: "held",
    })
    expect(item.summary).toMatch(/Held for a person/)

    paylater().advanceClock(12 * MINUTE)
    expect(await runPaidWithoutOrderRefunds(getContainer(), { now: new Date(Date.now() + 24 * 60 * MINUTE) })).toEqual([])
    expect(paylater().order(sessionId)!.refunds).toHaveLength(0)
    expect(await attention()).toHaveLength(1)

    const refunded = await api.post(`/admin/paylater/attention/${item.id}/refund`, {}, { ...admin, ...keep })
    expect(refunded.status).toBe(200)
    expect(refunded.data.attention).toMatchObject({ status: "resolved", resolution: "refunded", order_id: null })
    expect(paylater().order(sessionId)!.refunds).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(await ledgerForCart(getContainer(), cartId)).toMatchObject({ orders: 0, refunds: 1 })
    // A second click: refused with the reason (409), nothing sent again.
    expect((await api.post(`/admin/paylater/attention/${item.id}/refund`, {}, { ...admin, ...keep })).status).toBe(409)
    expect(paylater().order(sessionId)!.refunds).toHaveLength(1)
  })

  it("a payment first seen past PayLater's refund window, its cart sold out: Medusa's rollback of the failed completion refunds nothing; held for a person", async () => {
    const admin = await createAdminUser(api, getContainer())
    const stocked = await createStockedVariant(getContainer(), seed, 350)
    await stocked.setStock(1)
    // Paid on PayLater's page; the shopper never comes back and no notification arrives.
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: stocked.variantId }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    const session = started.session.data.session
    await decideOnLink(String(session.data.payment_link_url), "approve")
    await stocked.setStock(0)

    // Reconciliation finds it paid 12 minutes later (PayLater would accept a refund by then), and
    // Medusa's completion fails: its rollback asks the provider to refund the captured payment.
    paylater().advanceClock(12 * MINUTE)
    await runScheduledJobs(getContainer(), 12)
    expect(paylater().order(session.id)!.status).toBe(2)
    expect(paylater().order(session.id)!.refunds).toEqual([])
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 0, refunds: 0 })
    const attention = (await api.get(`/admin/paylater/attention?status=open`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>
    expect(attention).toEqual([expect.objectContaining({ kind: "paid_without_order", refund_state: "held" })])
  })
}

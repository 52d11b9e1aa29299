/**
 * An order whose records a crash left half-made (Medusa's completion died after creating the order
 * and before recording its payment, the fault campaign's crash point) while PayLater holds the
 * shopper's checkout payment for it. Medusa's summary shows the whole total outstanding. The shopper
 * must never pay for it twice: the point of sale does not push a second Request to Pay for money
 * PayLater already holds, and when the order is paid again anyway (staff mark a second collection as
 * paid), the order's money is counted over all its collections: the checkout payment is the extra
 * one, listed and refunded, and the order holds exactly one payment.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createOrderPaymentCollectionWorkflow, markPaymentCollectionAsPaid } from "@medusajs/medusa/core-flows"
import { useSeededStore } from "../../helpers/seeded-store"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { createAdminUser } from "../../helpers/store-client"
import { ledgerModuleOf } from "../../../src/modules/paylater-ledger/resolve"
import { OWNER_SETTLES_WITHIN_MS } from "../../../src/modules/paylater-ledger/whose-money"
import { runScheduledJobs } from "../paylater-ledger/clocks"
import { orderMoney } from "../paylater-link/order-money"
import { ledgerForCart } from "../paylater-link/ledger"
import { halfMadeOrder } from "../paylater-crash-points/half-made"

const PAST_BOUND_MINUTES = Math.ceil(OWNER_SETTLES_WITHIN_MS / 60_000) + 1

export function halfMadeOrderPaidAgain({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  const keep = { validateStatus: () => true }

  /** What Medusa counts as the order's money (paylater-link/order-money.ts), as this suite compares it. */
  const moneyOf = async (orderId: string) => {
    const money = await orderMoney(getContainer(), orderId)
    return { total: money.total, providers: money.providers }
  }

  it("the point of sale does not ask the shopper to pay again for money PayLater holds for the order", async () => {
    const admin = await createAdminUser(api, getContainer())
    const { started, session, orderId } = await halfMadeOrder(getContainer(), store, seed, paylater())
    const state = await api.get(`/admin/paylater/orders/${orderId}/request-to-pay`, { ...admin, ...keep })
    expect(state.status).toBe(200)
    expect(state.data.request_to_pay).toMatchObject({ can_send: false })
    expect(state.data.request_to_pay.blocked_reason).toMatch(/PayLater already holds [\d.]+ QAR paid at this order's checkout/)

    const sent = await api.post(`/admin/paylater/orders/${orderId}/request-to-pay`, { mobile_number: "3312 3456" }, { ...admin, ...keep })
    expect(sent.status).toBe(400)
    expect(sent.data.message).toMatch(/do not ask the shopper to pay again/)
    expect(paylater().orders().map((o) => o.orderId)).toEqual([session.id])

    // Past the bound the jobs settle the cart with the checkout payment (an order whose completion
    // never reserved its stock is completed again with Medusa's checks): one order, holding exactly
    // the checkout payment, and still no second request to the shopper.
    await runScheduledJobs(getContainer(), PAST_BOUND_MINUTES)
    const placed = await ledgerForCart(getContainer(), started.cart.id)
    expect(placed).toMatchObject({ orders: 1, captures: 1, refunds: 0 })
    expect(await moneyOf(placed.orderId!)).toMatchObject({ providers: ["pp_paylater_paylater"] })
    expect(await ledgerModuleOf(getContainer())!.findAttempt(session.id)).toMatchObject({ state: "paid", order_id: placed.orderId })
    expect(paylater().orders().map((o) => o.orderId)).toEqual([session.id])
    expect(paylater().order(session.id)!.refunds).toEqual([])
  })

  it("paid again through a second collection anyway: the checkout payment is the extra one, refunded, and the order holds one payment", async () => {
    const { session, orderId } = await halfMadeOrder(getContainer(), store, seed, paylater())
    const ledger = ledgerModuleOf(getContainer())!
    const outstanding = async () => {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["id", "summary.*"], filters: { id: orderId } })
      return Number((data[0] as any).summary.pending_difference)
    }
    const amount = await outstanding()
    expect(amount).toBeGreaterThan(0)

    // Staff see the total outstanding and take it another way, marking a new collection of the order paid.
    const { result: [collection] } = await createOrderPaymentCollectionWorkflow(getContainer()).run({ input: { order_id: orderId, amount } })
    await markPaymentCollectionAsPaid(getContainer()).run({ input: { order_id: orderId, payment_collection_id: collection.id } })

    // Past the bound nobody finishes the order with the checkout payment: it is extra, listed once.
    await runScheduledJobs(getContainer(), PAST_BOUND_MINUTES, 2)
    expect(await moneyOf(orderId)).toEqual({ total: amount, providers: ["pp_system_default"] })
    expect(await ledger.findAttempt(session.id)).toMatchObject({ state: "paid", order_id: null })
    const items = (await ledger.listPayLaterAttentions({ paylater_order_id: session.id })) as Array<{ kind: string; status: string }>
    expect(items.map((i) => [i.kind, i.status])).toEqual([["paid_without_order", "open"]])

    // After PayLater's refund window, it goes back in full, once.
    paylater().advanceClock(15 * 60_000)
    await runScheduledJobs(getContainer(), PAST_BOUND_MINUTES + 15, 2)
    expect(paylater().order(session.id)!.refunds).toEqual([expect.objectContaining({ full: true })])
    expect(await moneyOf(orderId)).toEqual({ total: amount, providers: ["pp_system_default"] })
    expect(await outstanding()).toBe(0)
  })
}

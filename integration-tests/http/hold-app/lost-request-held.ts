/**
 * Issue 17 under `paidWithoutOrder: "hold"`: a Request to Pay whose answer was lost (the push timed
 * out, the status check failed, the storefront got an error) and that the shopper approved later in
 * the app is listed on Settings → PayLater for a person, never refunded by itself, and refunded
 * exactly once from the list. Black-box, like fast-timeout-app/paylater-ledger.ts (the default policy).
 */
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { createAdminUser, type AdminAuth } from "../../helpers/store-client"
import { MINUTE, runScheduledJobs } from "../paylater-ledger/clocks"
import { loseRequestToPay } from "../paylater-ledger/lost-request"
import { merchantView } from "../paylater-ledger/merchant"
import { successDelivered } from "../paylater-ledger/notifications"
import { ledgerForCart } from "../paylater-link/ledger"

export function lostRequestHeld({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
  let admin: AdminAuth
  const merchant = merchantView(api, () => admin, paylater)

  beforeAll(async () => {
    admin = await createAdminUser(api, getContainer())
  })

  it("a Request to Pay whose answer was lost, approved later: listed and held, never refunded by itself, refunded once from the list", async () => {
    const { cartId, reference, storefront } = await loseRequestToPay(store, seed, paylater)
    expect(storefront).toMatchObject({ ok: false })

    await paylater().approveRequest(reference)
    await successDelivered(paylater, reference)
    await runScheduledJobs(getContainer())

    const item = await merchant.listed(reference)
    expect(item).toMatchObject({ kind: "paid_without_order", paylater_order_id: reference, amount: "360.00", cart_id: cartId, can_refund: true })

    // A day later, long past PayLater's refund window: still held, nothing sent.
    paylater().advanceClock(24 * 60 * MINUTE)
    await runScheduledJobs(getContainer(), 24 * 60)
    expect(merchant.refundsAtPayLater(reference)).toEqual([])
    expect(await merchant.itemsFor(reference)).toEqual([expect.objectContaining({ id: item.id })])

    // The operator's Refund on the list: once, in full; a second click sends nothing.
    const refunded = await merchant.refundFromList(item.id)
    expect(refunded.status).toBe(200)
    expect(refunded.data.attention).toMatchObject({ status: "resolved", resolution: "refunded" })
    // Already refunded: a second click is refused with the reason (409), nothing sent again.
    expect((await merchant.refundFromList(item.id)).status).toBe(409)
    expect(merchant.refundsAtPayLater(reference)).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
    expect(await ledgerForCart(getContainer(), cartId)).toMatchObject({ orders: 0 })
  })
}

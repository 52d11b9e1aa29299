/**
 * Nothing leaves the ledger unasked, and errors are not `pending` (issue 23 items 4 and 5), tried
 * from outside: the store API, the sandbox (its hosted page, webhook faults), the store's scheduled
 * jobs on a moved clock, and Settings → PayLater. One fault is injected inside the app (a database
 * write of the plugin's module that throws), because a real one cannot be caused from outside.
 *
 * - A link paid in a deleted session whose webhook was lost, first looked at by reconciliation only
 *   after its expiry plus the asking margin: asked (a final status call), found paid, listed.
 * - A settlement whose ledger write throws: the error reaches the caller (the event bus retries),
 *   never a quiet `pending`; a row that keeps failing is listed for a person with the error.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../../helpers/store-client"
import { runScheduledJobs } from "../paylater-ledger/clocks"
import { merchantView } from "../paylater-ledger/merchant"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { decideOnLink } from "../paylater-link/shopper"
import { settlePayLaterSession } from "../../../src/settlement/settle"
import { ledgerModuleOf } from "../../../src/modules/paylater-ledger/resolve"

/** The link's validity (60 minutes) plus the asking margin (2 hours), and a little more. */
const PAST_ASKING_WINDOW = 60 + 120 + 5

export function neverDropped({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
  let admin: AdminAuth
  const merchant = merchantView(api, () => admin, paylater)

  beforeEach(async () => {
    admin = await createAdminUser(api, getContainer())
  })

  afterEach(() => paylater().clearFaults())

  async function linkCheckout() {
    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
    return { cartId: started.cart.id, collectionId: started.paymentCollection.id, session: started.session.data.session }
  }

  it("a paid link whose webhook was lost, first looked at after its expiry plus the margin: asked, found paid, listed", async () => {
    const first = await linkCheckout()
    // The shopper restarts checkout (the first session is deleted), then pays the first link in an old tab.
    const again = await store.createPaymentSession(first.collectionId, PAYLATER_PROVIDER_ID)
    expect(again.ok).toBe(true)
    paylater().webhookFault({ mode: "drop", status: "success", count: 10 })
    await decideOnLink(String(first.session.data.payment_link_url), "approve")
    expect(paylater().order(first.session.id)!.status).toBe(2)

    await runScheduledJobs(getContainer(), PAST_ASKING_WINDOW)
    const item = await merchant.listed(first.session.id, 5_000)
    expect(item).toMatchObject({ kind: "paid_without_order", paylater_order_id: first.session.id, amount: "360.00" })
    expect(paylater().requests().some((r) => r.endpoint === "status" && r.query.order_id === first.session.id)).toBe(true)
  })

  it("a settlement whose ledger write fails throws instead of reporting pending, and a row that keeps failing is listed for a person", async () => {
    const ledgerModule = ledgerModuleOf(getContainer())!
    // PayLater's answer is recorded (with the row's links) before anything is placed: that write fails.
    const original = ledgerModule.recordStatus.bind(ledgerModule)
    const { cartId, session } = await linkCheckout()
    paylater().webhookFault({ mode: "drop", status: "success", count: 10 })
    await decideOnLink(String(session.data.payment_link_url), "approve")
    ledgerModule.recordStatus = async () => {
      throw new Error("injected: the database refused the write")
    }
    try {
      // The shopper's return, straight into settlement: the error propagates.
      await expect(settlePayLaterSession(getContainer(), { session_id: session.id, signal: "return" })).rejects.toThrow(/injected/)
      // The job keeps meeting it; after a few runs it is listed for a person, with the error.
      for (let minutes = 2; minutes <= 12; minutes += 2) {
        await runScheduledJobs(getContainer(), minutes)
      }
      const items = await merchant.attention("open")
      expect(items.filter((i) => i.kind === "settlement_failing" && i.paylater_order_id === session.id)).toEqual([
        expect.objectContaining({ summary: expect.stringContaining("injected: the database refused the write") }),
      ])
    } finally {
      ledgerModule.recordStatus = original
    }
    // Once the fault is gone, the next run places the order.
    await runScheduledJobs(getContainer(), 14)
    expect(await eventually(() => ledgerForCart(getContainer(), cartId), (l) => l.orders === 1)).toMatchObject({ orders: 1, captures: 1 })
  })
}

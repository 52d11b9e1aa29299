/**
 * A store with two PayLater registrations (medusa-config.ts's `paylater` and `paylater-b`: two
 * PayLater accounts, each with its own outlet and credentials, here two sandboxes). Every attempt
 * is asked about and refunded at the account that started it, and nowhere else (issue 31, item 3):
 *
 * - A link started under the SECOND registration whose session is deleted before any settlement
 *   (the shopper picks another method), then paid at PayLater B: reconciliation asks B, the payment
 *   is listed, and the automatic refund after PayLater's refund window goes to B. Sandbox A hears
 *   nothing about it.
 * - Attempts of a registration no longer in the configuration are never sent elsewhere: an open one
 *   stays open, a paid one is listed for a person with no automatic refund, and the refund from the
 *   list is refused.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { PAYLATER_LEDGER_MODULE, type PayLaterLedgerModuleService } from "../../src/modules/paylater-ledger"
import { useEnv } from "../helpers/env"
import { useSandbox, type SandboxHandle } from "../helpers/sandbox"
import { PAYLATER_B_PROVIDER_ID, SYSTEM_PROVIDER_ID } from "../helpers/seed"
import { createAdminUser, startCheckout, type AdminAuth } from "../helpers/store-client"
import { MINUTE, runScheduledJobs } from "./paylater-ledger/clocks"
import { merchantView } from "./paylater-ledger/merchant"
import { decideOnLink } from "./paylater-link/shopper"

jest.setTimeout(240_000)

useEnv({ PAYLATER_TIMEOUT_MS: "1500" })
// Tokens outlive the sandbox clocks' jump past the refund window.
const paylaterA = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })
// Registration B: another outlet and other credentials at another PayLater (the same merchant).
const B = { clientId: "sandbox-client-b", clientSecret: "sandbox-secret-b", outletId: 1000000062 }
useEnv({ PAYLATER_B_CLIENT_ID: B.clientId, PAYLATER_B_CLIENT_SECRET: B.clientSecret, PAYLATER_B_OUTLET_ID: String(B.outletId) })
const paylaterB = useSandbox({
  tokenLifetimeSeconds: 24 * 60 * 60,
  baseUrlEnv: "PAYLATER_B_API_BASE_URL",
  clientId: B.clientId,
  clientSecret: B.clientSecret,
  outlets: [{ id: B.outletId }],
})
/** PayLater accepts a refund from 10 minutes after the payment; the store waits a little longer. */
const PAST_REFUND_WINDOW = 12

/** Every call a PayLater received that names this PayLater order id (status, refund, create). */
function callsAbout(paylater: SandboxHandle, orderId: string) {
  return paylater()
    .requests()
    .filter((r) => JSON.stringify({ query: r.query, body: r.body, path: r.path }).includes(orderId))
}

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer })
    let admin: AdminAuth
    const merchant = merchantView(api, () => admin, paylaterB)
    const ledger = () => getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService

    beforeEach(async () => {
      admin = await createAdminUser(api, getContainer())
    })

    it("a detached link of the second registration is asked about, listed and refunded at that registration's PayLater only", async () => {
      expect(seed.regionPaymentProviders).toContain(PAYLATER_B_PROVIDER_ID)
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_B_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
      const session = started.session.data.session
      expect(paylaterB().order(session.id)).toMatchObject({ amount: "360.00" })
      expect(paylaterA().order(session.id)).toBeUndefined()

      // The write-ahead names the registration and the account, before any settlement saw the session.
      const row = await ledger().findAttempt(session.id)
      expect(row).toMatchObject({ provider_id: PAYLATER_B_PROVIDER_ID, paylater_account: expect.stringContaining(String(B.outletId)) })
      expect(row!.paylater_account).toContain(B.clientId)
      expect(row!.paylater_account).not.toContain(B.clientSecret)

      // The shopper picks another method: Medusa deletes the PayLater session; the link stays payable.
      expect((await store.createPaymentSession(started.paymentCollection.id, SYSTEM_PROVIDER_ID)).ok).toBe(true)
      expect((await ledger().findAttempt(session.id))!.session_gone_at).toBeTruthy()
      // ...and pays it anyway (an older tab). Nobody is notified: only reconciliation can find it.
      await decideOnLink(String(session.data.payment_link_url), "approve")
      expect(paylaterB().order(session.id)!.status).toBe(2)

      await runScheduledJobs(getContainer(), 15)
      const item = await merchant.listed(session.id)
      expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00", cart_id: started.cart.id, payment_id: null, can_refund: true })
      expect(callsAbout(paylaterB, session.id).filter((r) => r.endpoint === "status").length).toBeGreaterThan(0)

      paylaterB().advanceClock(PAST_REFUND_WINDOW * MINUTE)
      paylaterA().advanceClock(PAST_REFUND_WINDOW * MINUTE)
      await runScheduledJobs(getContainer(), 15 + PAST_REFUND_WINDOW)
      await runScheduledJobs(getContainer(), 30 + PAST_REFUND_WINDOW)

      expect(paylaterB().order(session.id)!.refunds).toEqual([expect.objectContaining({ amount: "360.00", full: true })])
      expect(await merchant.itemsFor(session.id)).toEqual([])
      expect((await merchant.itemsFor(session.id, "resolved"))[0]).toMatchObject({ resolution: "refunded" })
      // PayLater A never heard of this payment: no status call, no refund.
      expect(callsAbout(paylaterA, session.id)).toEqual([])
    })

    it("attempts of a registration no longer configured are never sent elsewhere: open ones stay open, a paid one is listed for a person and its refund refused", async () => {
      // Rows written while a registration `paylater-old` was configured; it has since been removed.
      const gone = { provider_id: "pp_paylater_paylater-old", paylater_account: "https://old.paylater.example outlet 1000000099 client old-client" }
      const write = async (id: string) => {
        await ledger().writeAhead({
          paylater_order_id: id,
          kind: "link",
          session_id: id,
          ...gone,
          amount: "360.00",
          currency_code: "QAR",
          expires_at: new Date(Date.now() + 60 * MINUTE),
        })
        await ledger().recordStarted(id, { expires_at: null })
        await ledger().markSessionGone(id)
      }
      await write("payses_old_open")
      await write("payses_old_paid")
      // PayLater (the old account) said paid while it was still configured.
      await ledger().recordStatus("payses_old_paid", { code: 2, message: "success", paylater_ref: "PL-OLD-1", signal: "webhook" })

      await runScheduledJobs(getContainer(), 15)
      expect(await ledger().findAttempt("payses_old_open")).toMatchObject({ state: "open" })
      const item = await merchant.listed("payses_old_paid")
      expect(item).toMatchObject({ kind: "paid_without_order", amount: "360.00", can_refund: false })
      expect(item.summary).toMatch(/paylater-old.*no longer configured/)
      expect(item.summary).not.toMatch(/refunded in full automatically/)

      const refused = await merchant.refundFromList(item.id)
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/paylater-old.*no longer configured/)

      paylaterA().advanceClock(PAST_REFUND_WINDOW * MINUTE)
      paylaterB().advanceClock(PAST_REFUND_WINDOW * MINUTE)
      await runScheduledJobs(getContainer(), 15 + PAST_REFUND_WINDOW)
      await runScheduledJobs(getContainer(), 30 + PAST_REFUND_WINDOW)
      expect(await merchant.itemsFor("payses_old_paid")).toHaveLength(1)
      expect(await ledger().findAttempt("payses_old_open")).toMatchObject({ state: "open" })
      for (const paylater of [paylaterA, paylaterB]) {
        expect(callsAbout(paylater, "payses_old_")).toEqual([])
      }
    })
  },
})

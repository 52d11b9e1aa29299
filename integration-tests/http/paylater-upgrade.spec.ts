/**
 * The upgrade to the attempt ledger (issue 17): a store that ran the plugin before it had the ledger
 * holds its PayLater attempts only in Medusa's payment sessions and, for deleted or replaced ones,
 * as tombstones in the payment collections' metadata (`paylater_deleted_sessions`). The database is
 * seeded that way (checkouts through the store API, then the ledger emptied and the tombstone
 * written as the old provider wrote it), the upgrade's migration script runs, and every attempt is
 * in the ledger: the live session's link still becomes an order, the deleted session's link paid
 * after the upgrade is found and listed.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { backfillAttemptLedger } from "../../src/migration-scripts/paylater-attempt-ledger-backfill"
import { PAYLATER_ACTIVITY_MODULE, type PayLaterActivityModuleService } from "../../src/modules/paylater-activity"
import { payLaterReconcileWorkflow } from "../../src/workflows/paylater-reconcile/workflow"
import { useSandbox } from "../helpers/sandbox"
import { PAYLATER_PROVIDER_ID, seedStore, type SeedResult } from "../helpers/seed"
import { createAdminUser, startCheckout, storeClient, type AdminAuth, type StoreClient } from "../helpers/store-client"
import { ledgerForCart } from "./paylater-link/ledger"
import { decideOnLink, followToApp } from "./paylater-link/shopper"

jest.setTimeout(240_000)

const paylater = useSandbox({})

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeedResult
    let store: StoreClient
    let admin: AdminAuth
    const keep = { validateStatus: () => true }

    beforeAll(async () => {
      seed = await seedStore(getContainer())
      store = storeClient(api, seed.publishableKey)
      admin = await createAdminUser(api, getContainer())
    })

    const activity = () => getContainer().resolve(PAYLATER_ACTIVITY_MODULE) as PayLaterActivityModuleService
    const pg = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any

    async function checkout() {
      const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
      if (!started.session.ok || !started.session.data.session) throw new Error(`session: ${JSON.stringify(started.session)}`)
      return { cart: started.cart, collectionId: started.paymentCollection.id, session: started.session.data.session }
    }

    it("fills the ledger from payment sessions and tombstones, so payments in flight are not lost", async () => {
      // A live checkout, and one whose session the cart change deleted (its link still payable).
      const live = await checkout()
      const gone = await checkout()
      expect((await store.post(`/store/carts/${gone.cart.id}/line-items`, { variant_id: seed.variants.standard.id, quantity: 1 })).ok).toBe(true)
      // The store before the upgrade: no ledger, and the old provider's tombstone on the collection.
      await pg().raw(`delete from paylater_attempt`)
      await getContainer()
        .resolve(Modules.PAYMENT)
        .updatePaymentCollections(gone.collectionId, {
          metadata: {
            paylater_deleted_sessions: [
              {
                session_id: gone.session.id,
                provider_id: PAYLATER_PROVIDER_ID,
                paylater_order_id: gone.session.id,
                amount: "360.00",
                expires_at: gone.session.data.expires_at,
                created_at: new Date().toISOString(),
                deleted_at: new Date().toISOString(),
              },
            ],
          },
        })
      expect(await activity().findAttempt(live.session.id)).toBeNull()

      const first = await backfillAttemptLedger(getContainer())
      expect(first).toMatchObject({ tombstones: 1, added: 2 })
      expect(await activity().findAttempt(live.session.id)).toMatchObject({
        state: "open",
        session_id: live.session.id,
        payment_collection_id: live.collectionId,
        kind: "link",
        superseded_by: null,
        session_gone_at: null,
      })
      expect(await activity().findAttempt(gone.session.id)).toMatchObject({
        state: "open",
        session_id: gone.session.id,
        payment_collection_id: gone.collectionId,
        session_gone_at: expect.anything(),
      })
      const [row] = await pg().raw(`select amount, raw_amount from paylater_attempt where paylater_order_id = ?`, [gone.session.id]).then((r: any) => r.rows)
      // Exact: the raw decimal beside the numeric column, never through a float.
      expect(MathBN.eq(row.raw_amount.value, "360.00") && MathBN.eq(row.amount, 360)).toBe(true)
      // Run again (db:migrate twice, or an instance racing): nothing is added twice.
      expect(await backfillAttemptLedger(getContainer())).toMatchObject({ added: 0 })

      // After the upgrade: the deleted session's link is paid, reconciliation finds it and lists it.
      await decideOnLink(String(gone.session.data.payment_link_url), "approve")
      await payLaterReconcileWorkflow(getContainer()).run({ input: {} })
      const attention = (await api.get(`/admin/paylater/attention`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>
      expect(attention).toEqual([
        expect.objectContaining({ kind: "paid_without_order", paylater_order_id: gone.session.id, amount: "360.00", cart_id: gone.cart.id }),
      ])

      // And the live session's link, paid after the upgrade, becomes its order.
      const location = await decideOnLink(String(live.session.data.payment_link_url), "approve")
      await followToApp(api, location)
      expect(await ledgerForCart(getContainer(), live.cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1, refunds: 0 })
      expect(paylater().order(gone.session.id)!.refunds).toHaveLength(0)
    })
  },
})

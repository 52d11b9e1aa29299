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
 *    next signal (here the shopper's return) completes the cart with that payment, once.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { integrationTestRunner } from "../helpers/runner"
import { useSeededStore } from "../helpers/seeded-store"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { PAYLATER_PROVIDER_ID } from "../helpers/seed"
import { startCheckout } from "../helpers/store-client"
import { ledgerForCart } from "./paylater-link/ledger"
import { ledgerModuleOf } from "../../src/modules/paylater-ledger/resolve"

jest.setTimeout(240_000)

useEnv({ PAYLATER_TIMEOUT_MS: "1500" })
const paylater = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })

integrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const { seed, store } = useSeededStore({ api, getContainer })

    /** What Medusa's completion leaves when its process dies right after creating the order. */
    async function orderWithoutPayment(cartId: string, collectionId: string): Promise<string> {
      const container = getContainer()
      const cart = await container.resolve(Modules.CART).retrieveCart(cartId, { relations: ["items"] })
      const [order] = await container.resolve(Modules.ORDER).createOrders([
        {
          region_id: cart.region_id!,
          sales_channel_id: cart.sales_channel_id!,
          email: cart.email!,
          currency_code: cart.currency_code,
          items: cart.items!.map((i) => ({ title: i.title, quantity: i.quantity as number, unit_price: i.unit_price as number, variant_id: i.variant_id! })),
        },
      ])
      await container.resolve(ContainerRegistrationKeys.LINK).create([
        { [Modules.ORDER]: { order_id: order.id }, [Modules.CART]: { cart_id: cartId } },
        { [Modules.ORDER]: { order_id: order.id }, [Modules.PAYMENT]: { payment_collection_id: collectionId } },
      ])
      await container.resolve(Modules.CART).updateCarts(cartId, { completed_at: new Date() })
      return order.id
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

    it("killed inside Medusa's completion after the order, before its payment: the order gets PayLater's payment, nothing is listed or refunded", async () => {
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
      const listed = await ledger.listPayLaterAttentions({ paylater_order_id: session!.id })
      expect(listed).toEqual([])
      const transactions = await getContainer().resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId, reference: "capture" })
      expect(transactions).toHaveLength(1)
      expect(paylater().order(session!.id)!.refunds).toEqual([])
    })
  },
})

import { AsyncLocalStorage } from "node:async_hooks"

/**
 * The payment collection a store request creates a payment session on, for the provider's
 * write-ahead. Medusa does not pass it to initiatePayment, and a session deleted before anything
 * settled it (a shopper who restarts checkout) would leave its attempt with no cart to refund or
 * hold for. It comes from the route's own path parameter (src/api/middlewares.ts), never from data
 * the storefront sends.
 */
const storage = new AsyncLocalStorage<{ payment_collection_id: string }>()

export function withPaymentCollection<T>(paymentCollectionId: string, run: () => T): T {
  return storage.run({ payment_collection_id: paymentCollectionId }, run)
}

export function currentPaymentCollection(): string | null {
  return storage.getStore()?.payment_collection_id ?? null
}

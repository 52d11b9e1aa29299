import { AsyncLocalStorage } from "node:async_hooks"
import { processSingleton } from "../../process-wide/process-slot"
import { REQUEST_CONTEXT_SLOT } from "../../process-wide/slot-keys"

/**
 * Facts the store route established server-side, for the provider (src/api/middlewares.ts). Medusa
 * passes neither to initiatePayment, and neither may come from data the storefront sends:
 *
 * - the payment collection the session is created on (from the route's path), for the write-ahead:
 *   a session deleted before anything settled it would otherwise leave its attempt with no cart;
 * - for a PayLater start through the store API (`store_start`): the mobile number PayLater's
 *   look-up matched with the cart's own email, or null when none was. With `store_start` present the
 *   provider pushes a Request to Pay only to that number. Without it the caller is the server itself
 *   (the admin's point of sale, a workflow), which keeps its own flow.
 */
export interface StoreStartFacts {
  /** Normalised (974XXXXXXXX); null when the store route matched no number. */
  matched_mobile: string | null
}

// One storage per process, not per module: the store middleware that sets it and the provider that
// reads it may come from two copies of this package (src/process-wide/process-slot.ts).
interface RequestFacts {
  payment_collection_id: string
  store_start?: StoreStartFacts
}

const storage = processSingleton(REQUEST_CONTEXT_SLOT, () => new AsyncLocalStorage<RequestFacts>())

export function withPaymentCollection<T>(paymentCollectionId: string, run: () => T): T {
  return storage.run({ payment_collection_id: paymentCollectionId }, run)
}

/** Runs `run` as a PayLater start through the store API, with what its checks established. */
export function withStoreStart<T>(paymentCollectionId: string, facts: StoreStartFacts, run: () => T): T {
  return storage.run({ payment_collection_id: paymentCollectionId, store_start: facts }, run)
}

export function currentPaymentCollection(): string | null {
  return storage.getStore()?.payment_collection_id ?? null
}

/** The store route's facts when this call comes from a PayLater start through the store API; else null. */
export function currentStoreStart(): StoreStartFacts | null {
  return storage.getStore()?.store_start ?? null
}

import { FaultBook } from "./faults"
import { OrderBook } from "./orders"
import { Clock, Store, Timers } from "./state"
import type { ResolvedSandboxOptions } from "./types"
import { WebhookDispatcher } from "./webhooks"

/** Everything a handler may touch, built once per sandbox. */
export interface SandboxContext {
  options: ResolvedSandboxOptions
  clock: Clock
  store: Store
  timers: Timers
  faults: FaultBook
  webhooks: WebhookDispatcher
  orders: OrderBook
  log: (line: string) => void
  /** Waiters of waitForDeliveries re-check on every new delivery record. */
  deliveryListeners: Set<() => void>
}

export function createContext(options: ResolvedSandboxOptions): SandboxContext {
  const clock = new Clock()
  const store = new Store(() => options.maxRecords)
  const timers = new Timers()
  const faults = new FaultBook()
  const deliveryListeners = new Set<() => void>()
  const log = (line: string) => {
    try {
      options.log(line)
    } catch {
      // A broken logger must not break the sandbox.
    }
  }
  const webhooks = new WebhookDispatcher({
    options,
    clock,
    store,
    faults,
    log,
    onRecord: () => {
      for (const listener of [...deliveryListeners]) listener()
    },
  })
  const orders = new OrderBook({
    clock,
    store,
    merchantId: options.merchantId,
    notify: (n) => webhooks.notify(n),
  })
  return { options, clock, store, timers, faults, webhooks, orders, log, deliveryListeners }
}

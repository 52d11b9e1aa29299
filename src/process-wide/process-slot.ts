/**
 * One value per Node process, shared by every copy of this package that process loaded.
 *
 * A package manager can put two physical copies of the plugin into one app (pnpm does when a
 * storefront in the same workspace resolves other peers), and Medusa can load the payment provider
 * from one copy and the plugin's module or routes from the other. Module-level state would then be
 * split in two: the module would hand its ledger to a variable the provider never reads. A slot on
 * `globalThis` under a `Symbol.for` key is the same object for every copy. The key carries a
 * version: a slot's shape changes only with a new key, so copies of different shapes never meet.
 */
export interface ProcessSlot<T> {
  get(): T | undefined
  set(value: T): void
}

export function processSlot<T>(key: string): ProcessSlot<T> {
  const symbol = Symbol.for(key)
  const holder = globalThis as unknown as Record<symbol, T | undefined>
  return {
    get: () => holder[symbol],
    set: (value) => {
      holder[symbol] = value
    },
  }
}

/** The slot's value, created by `make` the first time any copy asks. */
export function processSingleton<T>(key: string, make: () => T): T {
  const slot = processSlot<T>(key)
  let value = slot.get()
  if (value === undefined) {
    value = make()
    slot.set(value)
  }
  return value
}

/**
 * `useSeededStore({ api, getContainer }, opts)`: the seeded store nearly every http spec starts from
 * (`seedStore`, a store client on its publishable key, the sandbox's webhooks pointed at the app),
 * set up once per spec file. Call it first thing INSIDE `testSuite`:
 *
 *   const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })
 *
 * Its `beforeAll` is registered before the spec's own, so the spec's `beforeAll` can already use
 * `seed` and `store` (e.g. to create more data), and the runner's snapshot after them all makes
 * every test start from the seeded store.
 *
 * `seed` and `store` are usable from any hook or test; they are filled in when the suite's
 * `beforeAll` runs, so the spec keeps them as plain names instead of `let` variables assigned in
 * each file's own copy of the set-up.
 */
import type { AxiosInstance } from "axios"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { SandboxHandle } from "./sandbox"
import { seedStore, type SeedResult, type SeedStoreOptions } from "./seed"
import { storeClient, type StoreClient } from "./store-client"

/** The plugin's own webhook route (the URL a merchant gives PayLater). */
export const PLUGIN_WEBHOOK_PATH = "/paylater/webhooks"

export interface SeededStoreOptions {
  /**
   * Send this sandbox's webhooks to the app, at `webhookPath` (default the plugin's route,
   * /paylater/webhooks). Omitted: the sandbox's webhooks go nowhere unless the spec points them.
   */
  webhooks?: SandboxHandle
  webhookPath?: string
  /** Passed to `seedStore`. */
  seed?: SeedStoreOptions
}

export interface SeededStore {
  seed: SeedResult
  store: StoreClient
}

/**
 * An object that stands for a value known only once a hook has run: every property read goes to
 * the value, and reading it before then fails with a message saying why.
 */
function filledLater<T extends object>(what: string): { value: T; fill(v: T): void } {
  let target: T | undefined
  const get = (): T => {
    if (!target) throw new Error(`${what} is not ready: use it in a hook or a test, after useSeededStore's beforeAll`)
    return target
  }
  const value = new Proxy({} as T, {
    get: (_t, key) => Reflect.get(get(), key),
    has: (_t, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), key)
      // A proxy may only report a property as configurable when its own (empty) target has none.
      return d && { ...d, configurable: true }
    },
  })
  return {
    value,
    fill: (v) => {
      target = v
    },
  }
}

export function useSeededStore(
  suite: { api: AxiosInstance; getContainer: () => MedusaContainer },
  opts: SeededStoreOptions = {}
): SeededStore {
  const seed = filledLater<SeedResult>("the seeded store")
  const store = filledLater<StoreClient>("the store client")
  beforeAll(async () => {
    const seeded = await seedStore(suite.getContainer(), opts.seed)
    seed.fill(seeded)
    store.fill(storeClient(suite.api, seeded.publishableKey))
    if (opts.webhooks) opts.webhooks.pointWebhooksAt(suite.api, opts.webhookPath ?? PLUGIN_WEBHOOK_PATH)
  })
  return { seed: seed.value, store: store.value }
}

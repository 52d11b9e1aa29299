import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { repeatedCallWorstCaseMs, sentOnceStaleAfterMs } from "../../lib/paylater"
import { createStaleAfterMs } from "../create-in-flight"
import { medusaCreating } from "../session"

const NOW = new Date("2026-11-30T12:00:00Z")
const justNow = new Date(NOW.getTime() - 2_000)
// A 1.5 s client with three attempts, as the fast-timeout integration app runs it.
const STALE_AFTER = 3_000 + sentOnceStaleAfterMs({ timeoutMs: 1_500, maxAttempts: 3 })
const ago = (ms: number) => new Date(NOW.getTime() - ms)

describe("medusaCreating: whether Medusa's create of a session has written the provider's answer", () => {
  it("is still creating while the data names none of the session's own attempts (the storefront's data as inserted)", () => {
    for (const data of [null, undefined, {}, { paylater_order_id: 7 }, { paylater_order_id: "" }, { paylater_order_id: "payses_2" }, { paylater_order_id: "payses_10" }]) {
      expect(medusaCreating({ id: "payses_1", data, created_at: justNow }, null, STALE_AFTER, NOW)).toBe(true)
    }
  })

  it("is created once the data names the session's first attempt or a retry of it", () => {
    for (const paylater_order_id of ["payses_1", "payses_1-2", "payses_1-3"]) {
      expect(medusaCreating({ id: "payses_1", data: { paylater_order_id }, created_at: justNow }, null, STALE_AFTER, NOW)).toBe(false)
    }
  })

  it("takes a create as dead once its calls cannot still be running (its process stopped before Medusa's last write)", () => {
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: ago(STALE_AFTER) }, null, STALE_AFTER, NOW)).toBe(false)
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: ago(STALE_AFTER - 1_000) }, null, STALE_AFTER, NOW)).toBe(true)
    // Counted from the later of the session's insert and its current attempt's write-ahead: a second
    // create ("-2") written late in a slow start restarts the count.
    const old = ago(STALE_AFTER + 60_000)
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: old }, { created_at: ago(STALE_AFTER - 1_000) }, STALE_AFTER, NOW)).toBe(true)
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: old }, { created_at: ago(STALE_AFTER) }, STALE_AFTER, NOW)).toBe(false)
    // No time read at all: still creating (the wait itself is bounded).
    expect(medusaCreating({ id: "payses_1", data: {} }, null, STALE_AFTER, NOW)).toBe(true)
  })

  it("is bounded by the client's configuration: a 1.5 s client's create is dead within two minutes, a 300 s client's is not", () => {
    expect(STALE_AFTER).toBeLessThan(2 * 60_000)
    const slowest = 3_000 + sentOnceStaleAfterMs({ timeoutMs: 300_000, maxAttempts: 5 })
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: ago(10 * 60_000) }, null, slowest, NOW)).toBe(true)
  })
})

describe("createStaleAfterMs: a create's bound from the registration that runs it", () => {
  const options = {
    clientId: "client-a",
    clientSecret: "secret",
    outletId: 1000000061,
    webhookSecret: "webhook-secret",
    backendUrl: "https://api.shop.qa",
    storefrontUrl: "https://shop.qa",
    timeoutMs: 4000,
  }
  const containerWith = (providers: unknown[]) =>
    ({
      resolve: (key: string) => {
        if (key !== ContainerRegistrationKeys.CONFIG_MODULE) throw new Error(`unexpected ${key}`)
        return { modules: { payment: { options: { providers } } } }
      },
    }) as unknown as MedusaContainer
  const configured = containerWith([{ id: "paylater", resolve: "medusa-payment-paylater/providers/paylater", options }])
  const timing = { timeoutMs: 4000, maxAttempts: 3 }

  it("a link: the look-up's timeout, one create at the client's worst, and the bookkeeping margin", () => {
    expect(createStaleAfterMs(configured, "pp_paylater_paylater")).toBe(3000 + sentOnceStaleAfterMs(timing))
  })

  it("a Request to Pay: also the status read that tells whether a request whose answer was lost landed", () => {
    expect(createStaleAfterMs(configured, "pp_paylater-rtp_paylater")).toBe(3000 + sentOnceStaleAfterMs(timing) + repeatedCallWorstCaseMs(timing))
  })

  it("a registration whose options cannot be read: ten minutes, longer than the default configuration's worst Request to Pay", () => {
    const defaults = { timeoutMs: 15000, maxAttempts: 3 }
    const unknown = createStaleAfterMs(containerWith([]), "pp_paylater-rtp_paylater")
    expect(unknown).toBe(10 * 60_000)
    expect(unknown).toBeGreaterThan(3000 + sentOnceStaleAfterMs(defaults) + repeatedCallWorstCaseMs(defaults))
  })
})

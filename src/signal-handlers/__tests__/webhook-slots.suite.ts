import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { OPTIONS } from "../../providers/paylater/__tests__/fake-api"
import { settleInTurn, webhookConcurrency, webhookSlots } from "../webhook-slots"

/** The container pieces the slots read: the configuration, the database pool, the logger. */
function container(opts: { providerOptions?: object[]; poolMax?: number | null } = {}): MedusaContainer {
  const providers = (opts.providerOptions ?? [OPTIONS]).map((options, i) => ({
    resolve: "medusa-payment-paylater/providers/paylater",
    id: i === 0 ? "paylater" : `paylater${i}`,
    options,
  }))
  const registered: Record<string, unknown> = {
    [ContainerRegistrationKeys.CONFIG_MODULE]: { modules: { payment: { options: { providers } } } },
    [ContainerRegistrationKeys.LOGGER]: { warn: () => undefined },
  }
  if (opts.poolMax !== null) registered[ContainerRegistrationKeys.PG_CONNECTION] = { client: { pool: { max: opts.poolMax ?? 10 } } }
  return {
    resolve: (key: string) => {
      if (!(key in registered)) throw new Error(`${key} is not registered`)
      return registered[key]
    },
  } as unknown as MedusaContainer
}

describe("webhook settlement slots", () => {
  it("default to 2, or half the database pool the app was built with when smaller, at least one", () => {
    expect(webhookConcurrency(container({ poolMax: 10 }))).toBe(2)
    expect(webhookConcurrency(container({ poolMax: 30 }))).toBe(2)
    expect(webhookConcurrency(container({ poolMax: 3 }))).toBe(1)
    expect(webhookConcurrency(container({ poolMax: 1 }))).toBe(1)
    // No shared connection to read: Medusa's default pool of 10.
    expect(webhookConcurrency(container({ poolMax: null }))).toBe(2)
  })

  it("take the smallest webhookConcurrency a registration sets over the pool's share", () => {
    expect(webhookConcurrency(container({ providerOptions: [{ ...OPTIONS, webhookConcurrency: 12 }], poolMax: 10 }))).toBe(12)
    expect(
      webhookConcurrency(
        container({ providerOptions: [{ ...OPTIONS, webhookConcurrency: 7 }, OPTIONS, { ...OPTIONS, webhookConcurrency: 3 }] })
      )
    ).toBe(3)
  })

  it("settle a burst at most `webhookConcurrency` at a time, in arrival order, every one of them", async () => {
    const app = container({ providerOptions: [{ ...OPTIONS, webhookConcurrency: 2 }] })
    const started: number[] = []
    let running = 0
    let highest = 0
    const burst = Array.from({ length: 200 }, (_, i) =>
      settleInTurn(app, async () => {
        started.push(i)
        running++
        highest = Math.max(highest, running)
        await new Promise((resolve) => setImmediate(resolve))
        running--
        if (i === 7) throw new Error("PayLater timed out")
        return i
      })
    )
    const outcomes = await Promise.allSettled(burst)
    expect(highest).toBe(2)
    expect(started).toEqual(Array.from({ length: 200 }, (_, i) => i))
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(1)
    expect(outcomes[7]).toEqual({ status: "rejected", reason: new Error("PayLater timed out") })
    expect([webhookSlots().running, webhookSlots().waiting]).toEqual([0, 0])
  })

  it("are one limiter per process, shared by every copy of the plugin", () => {
    expect(webhookSlots()).toBe((globalThis as Record<symbol, unknown>)[Symbol.for("medusa-payment-paylater.webhook-settlement-slots.v1")])
  })
})

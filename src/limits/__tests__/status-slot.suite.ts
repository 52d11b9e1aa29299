import { asValue } from "@medusajs/framework/awilix"
import { createMedusaContainer } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { takeStatusSlot } from "../../medusa-effects/settlement-effects"
import { SLOT_POLL_MS, slotTries, waitForStatusSlot } from "../status-interval"

describe("takeStatusSlot (one status call per session per interval)", () => {
  it("gives one slot per session per interval; other sessions are not held back", async () => {
    // No Redis and no database registered: the in-memory store, as in unit tests.
    const container = createMedusaContainer()
    expect(await takeStatusSlot(container, "payses_1", 5)).toBe(true)
    expect(await takeStatusSlot(container, "payses_1", 5)).toBe(false)
    expect(await takeStatusSlot(container, "payses_2", 5)).toBe(true)
    const many = await Promise.all(Array.from({ length: 10 }, () => takeStatusSlot(container, "payses_3", 5)))
    expect(many.filter(Boolean)).toHaveLength(1)
  })

  it("answers false (nobody asks now) when the budgets' store cannot be opened", async () => {
    const container = createMedusaContainer()
    container.register("configModule", asValue({ projectConfig: { redisUrl: "redis://127.0.0.1:1" } }))
    expect(await takeStatusSlot(container, "payses_4", 5)).toBe(false)
  })
})

describe("one budget store per Medusa application", () => {
  it("is shared by the request scopes of one application (a route's container is a scope per request)", async () => {
    const container = createMedusaContainer()
    container.register("configModule", asValue({ projectConfig: {} }))
    expect(await takeStatusSlot(container.createScope() as MedusaContainer, "payses_5", 5)).toBe(true)
    expect(await takeStatusSlot(container.createScope() as MedusaContainer, "payses_5", 5)).toBe(false)
  })
})

describe("waitForStatusSlot (the one wait for a status-call slot)", () => {
  const pauses = () => {
    const slept: number[] = []
    return { slept, sleep: async (ms: number) => void slept.push(ms) }
  }

  it("without waiting, tries once", async () => {
    const { slept, sleep } = pauses()
    let tries = 0
    expect(await waitForStatusSlot({ take: async () => (tries++, false), sleep })).toBe(false)
    expect(tries).toBe(1)
    expect(slept).toEqual([])
  })

  it("waiting, takes the slot as soon as it is free", async () => {
    const { slept, sleep } = pauses()
    let tries = 0
    expect(await waitForStatusSlot({ take: async () => ++tries === 4, wait: true, sleep })).toBe(true)
    expect(slept).toEqual([SLOT_POLL_MS, SLOT_POLL_MS, SLOT_POLL_MS])
  })

  it("gives up after one interval and half a second of pauses, even when the wall clock is stepped back meanwhile", async () => {
    const { slept, sleep } = pauses()
    // The store's clock jumps ten minutes back at every pause: a deadline read off Date would never come.
    let clock = Date.now()
    const spy = jest.spyOn(Date, "now").mockImplementation(() => clock)
    try {
      const steppingBack = async (ms: number) => {
        clock -= 10 * 60_000
        return sleep(ms)
      }
      let tries = 0
      expect(await waitForStatusSlot({ take: async () => (tries++, false), wait: true, seconds: 5, sleep: steppingBack })).toBe(false)
      expect(tries).toBe(slotTries(5, true))
      expect(slept.reduce((a, b) => a + b, 0)).toBe(5_500)
    } finally {
      spy.mockRestore()
    }
  })

  it("ends the wait when the answer arrived by the road holding the slot", async () => {
    const { slept, sleep } = pauses()
    let checks = 0
    const settled = async () => ++checks === 2
    expect(await waitForStatusSlot({ take: async () => false, wait: true, sleep, settled })).toBe(false)
    expect(slept).toHaveLength(2)
  })
})

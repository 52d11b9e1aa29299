import { asValue } from "@medusajs/framework/awilix"
import { createMedusaContainer } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { takeStatusSlot } from "../../medusa-effects/settlement-effects"

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

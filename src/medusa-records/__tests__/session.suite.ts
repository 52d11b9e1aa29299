import { MEDUSA_CREATE_LIMIT_MS, medusaCreating } from "../session"

const NOW = new Date("2026-11-30T12:00:00Z")
const justNow = new Date(NOW.getTime() - 2_000)

describe("medusaCreating: whether Medusa's create of a session has written the provider's answer", () => {
  it("is still creating while the data names none of the session's own attempts (the storefront's data as inserted)", () => {
    for (const data of [null, undefined, {}, { paylater_order_id: 7 }, { paylater_order_id: "" }, { paylater_order_id: "payses_2" }, { paylater_order_id: "payses_10" }]) {
      expect(medusaCreating({ id: "payses_1", data, created_at: justNow }, NOW)).toBe(true)
    }
  })

  it("is created once the data names the session's first attempt or a retry of it", () => {
    for (const paylater_order_id of ["payses_1", "payses_1-2", "payses_1-3"]) {
      expect(medusaCreating({ id: "payses_1", data: { paylater_order_id }, created_at: justNow }, NOW)).toBe(false)
    }
  })

  it("takes a create older than any start can last as dead (its process stopped before Medusa's last write): never waited for again", () => {
    const old = new Date(NOW.getTime() - MEDUSA_CREATE_LIMIT_MS)
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: old }, NOW)).toBe(false)
    expect(medusaCreating({ id: "payses_1", data: {}, created_at: new Date(old.getTime() + 1_000) }, NOW)).toBe(true)
    // No creation time read: still creating (the wait itself is bounded).
    expect(medusaCreating({ id: "payses_1", data: {} }, NOW)).toBe(true)
  })
})

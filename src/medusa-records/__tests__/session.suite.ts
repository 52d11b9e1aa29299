import { medusaCreating } from "../session"

describe("medusaCreating: whether Medusa's create of a session has written the provider's answer", () => {
  it("is still creating while the data names none of the session's own attempts (the storefront's data as inserted)", () => {
    for (const data of [null, undefined, {}, { paylater_order_id: 7 }, { paylater_order_id: "" }, { paylater_order_id: "payses_2" }, { paylater_order_id: "payses_10" }]) {
      expect(medusaCreating({ id: "payses_1", data })).toBe(true)
    }
  })

  it("is created once the data names the session's first attempt or a retry of it", () => {
    for (const paylater_order_id of ["payses_1", "payses_1-2", "payses_1-3"]) {
      expect(medusaCreating({ id: "payses_1", data: { paylater_order_id } })).toBe(false)
    }
  })
})

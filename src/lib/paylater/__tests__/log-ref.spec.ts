import { logRef } from "../log-ref"

describe("logRef: ids as info-level logs show them", () => {
  it.each([
    ["payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5", "payses_…T1V3X5"],
    ["payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5-2", "payses_…T1V3X5-2"],
    ["cart_01JD3M6ZQ8W4Y2K7N5R9T1V3X5", "cart_…T1V3X5"],
    ["payses_1", "payses_…"],
    ["", "?"],
    [undefined, "?"],
  ])("%p → %p", (id, shown) => {
    expect(logRef(id)).toBe(shown)
  })

  it("never shows enough of a Medusa id to be used as one", () => {
    const id = "payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5"
    expect(logRef(id).replace(/\W/g, "").length).toBeLessThan(id.length / 2)
  })
})

import { displayAmount, formatAmount, formatBound, parseAmount, parseTwoDecimalString, splitInstalments } from "../money"
import { normaliseQatarMobile } from "../mobile"
import { harness, linkBody } from "./helpers"

describe("sandbox money, mobile and page helpers", () => {
  it.each([
    [350, 35000],
    ["350.5", 35050],
    ["350.05", 35005],
    [0.1, 10],
    [25000, 2500000],
    ["  12.30 ", 1230],
  ])("parseAmount(%j) = %i dirhams", (input, dirhams) => {
    expect(parseAmount(input)).toEqual({ ok: true, dirhams })
  })

  it.each([
    [undefined, "missing"],
    ["", "missing"],
    [350.123, "too_many_decimals"],
    ["1.001", "too_many_decimals"],
    [1e-7, "too_many_decimals"],
    [1e21, "not_a_number"],
    [Number.NaN, "not_a_number"],
    ["12,50", "not_a_number"],
    [true, "not_a_number"],
    [-1, "negative"],
  ])("parseAmount(%j) refuses: %s", (input, reason) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason })
  })

  it("reads refund amounts only as two-decimal strings", () => {
    expect(parseTwoDecimalString("120.00")).toBe(12000)
    expect(parseTwoDecimalString("120.0")).toBeNull()
    expect(parseTwoDecimalString(120)).toBeNull()
  })

  it("formats amounts, bounds and display text", () => {
    expect(formatAmount(5)).toBe("0.05")
    expect(formatBound(30000)).toBe("300")
    expect(formatBound(30050)).toBe("300.50")
    expect(displayAmount(123456789)).toBe("1,234,567.89")
  })

  it.each([100000, 100050, 100001, 30003, 1])("instalments of %i dirhams add up exactly", (total) => {
    const parts = splitInstalments(total)
    expect(parts).toHaveLength(4)
    expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
    expect(parts.slice(1).every((p) => p === parts[1])).toBe(true)
  })

  it("normalises mobiles typed by people, refuses others", () => {
    expect(normaliseQatarMobile("+974 5111-8021")).toBe("97451118021")
    expect(normaliseQatarMobile("0097451118021")).toBe("97451118021")
    expect(normaliseQatarMobile("51118021")).toBe("97451118021")
    expect(normaliseQatarMobile("9745111802")).toBeNull()
    expect(normaliseQatarMobile("abc")).toBeNull()
  })

  it("escapes merchant-supplied text on the hosted page", async () => {
    const h = await harness({ merchantId: `Bob's <b>shop</b>` })
    try {
      const api = await h.api()
      const res = await api.post("", linkBody({ order_id: `<img src=x onerror="alert(1)">` }))
      const page = await h.http.get(res.data.paymentLinkUrl)
      expect(page.data).not.toContain("<img src=x")
      expect(page.data).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;")
      expect(page.data).toContain("Bob&#39;s &lt;b&gt;shop&lt;/b&gt;")
    } finally {
      await h.sandbox.stop()
    }
  })
})

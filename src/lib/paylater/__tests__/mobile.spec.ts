import { PayLaterError } from "../errors"
import { maskMobile, normalizeQatarMobile } from "../mobile"

describe("normalizeQatarMobile", () => {
  it.each([
    "5111 8021",
    "51118021",
    "+974 5111 8021",
    "0097451118021",
    "97451118021",
    "+97451118021",
    "974 5111 8021",
    "00974 5111-8021",
    "(+974) 5111.8021",
    "+974-5111-8021",
    "5111\t8021",
    "\u00a05111 8021 ",
    "٥١١١٨٠٢١",
    "+٩٧٤ ٥١١١ ٨٠٢١",
    "۵۱۱۱۸۰۲۱",
  ])("%j → 97451118021", (input) => {
    expect(normalizeQatarMobile(input)).toBe("97451118021")
  })

  it.each([
    ["33123456", "97433123456"],
    ["66123456", "97466123456"],
    ["77123456", "97477123456"],
    [51118022, "97451118022"],
    [97451118023, "97451118023"],
  ])("%j → %s", (input, expected) => {
    expect(normalizeQatarMobile(input)).toBe(expected)
  })

  it.each([
    "",
    "   ",
    "44123456",
    "41118021",
    "81118021",
    "21118021",
    "5111802",
    "511180211",
    "+9745111802",
    "+971501234567",
    "+00974 5111 8021",
    "974 4412 3456",
    "09745111 8021",
    "+ 974",
    "5111 8021 ext 3",
    "5111_8021",
    "5111/8021",
    "51118021a",
    "+1 555 123 4567",
    "9" + "5".repeat(200),
    "5111 8021".padStart(60, " "),
  ])("rejects %j with VALIDATION", (input) => {
    expect(() => normalizeQatarMobile(input)).toThrow(PayLaterError)
  })

  it.each([[null], [undefined], [{}], [[]], [5.5], [-51118021], [Number.NaN], [true]])(
    "rejects %j with VALIDATION",
    (input) => {
      expect(() => normalizeQatarMobile(input)).toThrow(expect.objectContaining({ code: "VALIDATION" }))
    }
  )

  it("explains what a valid number looks like without repeating the input", () => {
    try {
      normalizeQatarMobile("+971 50 123 4567")
      throw new Error("expected a rejection")
    } catch (error) {
      expect((error as PayLaterError).message).toMatch(/8 digits starting with 3, 5, 6 or 7/)
      expect((error as PayLaterError).message).not.toContain("123 4567")
    }
  })
})

describe("maskMobile", () => {
  it("keeps the country code and the last three digits", () => {
    expect(maskMobile("97451118021")).toBe("974*****021")
  })

  it.each(["+974 5111 8021", "51118021", "0097451118021"])("masks %j the same way", (input) => {
    expect(maskMobile(input)).toBe("974*****021")
  })

  it.each([
    ["44123456", "******56"],
    ["ab", "**"],
    ["", ""],
    ["+971501234567", "***********67"],
  ])("masks non-Qatar input %j as %j", (input, masked) => {
    expect(maskMobile(input)).toBe(masked)
  })

  it("never returns more than a few digits of a long input", () => {
    const masked = maskMobile("1234567890".repeat(10))
    expect(masked.replace(/\*/g, "")).toBe("90")
  })

  it("survives non-strings", () => {
    expect(maskMobile(undefined)).toBe("")
    expect(maskMobile(null)).toBe("")
  })
})

import {
  addAmounts,
  assertAmountInRange,
  compareAmounts,
  formatMinorUnits,
  normalizeAmount,
  parseMinorUnits,
  toTwoDecimals,
} from "../money"
import { PayLaterError } from "../errors"

describe("parseMinorUnits (strict)", () => {
  it.each([
    ["350", 35000n],
    ["350.5", 35050n],
    ["350.50", 35050n],
    ["0.01", 1n],
    ["007.10", 710n],
    ["25000.00", 2500000n],
    ["-1.25", -125n],
    [350, 35000n],
    [350.5, 35050n],
    [0, 0n],
    ["123456789012345678.99", 12345678901234567899n],
  ])("%j → %s hundredths", (input, expected) => {
    expect(parseMinorUnits(input)).toBe(expected)
  })

  it.each([
    ["350.005"],
    ["0.001"],
    [0.1 + 0.2],
    [""],
    [" 350"],
    ["350 "],
    ["+350"],
    ["350."],
    [".5"],
    ["1e3"],
    [1e21],
    ["1,000"],
    ["٣٥٠"],
    ["0x10"],
    ["Infinity"],
    [Number.POSITIVE_INFINITY],
    [Number.NaN],
    ["9".repeat(100)],
  ])("rejects %j with VALIDATION", (input) => {
    expect(() => parseMinorUnits(input as string)).toThrow(PayLaterError)
    try {
      parseMinorUnits(input as string)
    } catch (error) {
      expect((error as PayLaterError).code).toBe("VALIDATION")
    }
  })

  it("rejects non-string, non-number input", () => {
    expect(() => parseMinorUnits(null as never)).toThrow(/decimal text/)
    expect(() => parseMinorUnits({ value: "1" } as never)).toThrow(/decimal text/)
    expect(() => parseMinorUnits(10n as never)).toThrow(/decimal text/)
  })

  it("names the field in its message", () => {
    expect(() => parseMinorUnits("1.234", "refund amount")).toThrow(/refund amount must have at most two decimals/)
  })
})

describe("toTwoDecimals rounds half-up on the digits, never through floats", () => {
  it.each([
    ["10.005", "10.01"],
    ["10.004", "10.00"],
    ["10.0049999999999999", "10.00"],
    ["10.0050000000000001", "10.01"],
    ["1.995", "2.00"],
    ["999.995", "1000.00"],
    ["0.125", "0.13"],
    ["2.675", "2.68"],
    ["1.005", "1.01"],
    ["350", "350.00"],
    ["350.5", "350.50"],
    ["-10.005", "-10.01"],
    ["-0.004", "0.00"],
    [10.005, "10.01"],
    [0.1 + 0.2, "0.30"],
    [1.005, "1.01"],
  ])("%j → %s", (input, expected) => {
    expect(toTwoDecimals(input)).toBe(expected)
  })

  it("still refuses text that is not a number", () => {
    expect(() => toTwoDecimals("abc")).toThrow(PayLaterError)
  })
})

describe("formatting and arithmetic", () => {
  it.each([
    [0n, "0.00"],
    [1n, "0.01"],
    [10n, "0.10"],
    [35000n, "350.00"],
    [-5n, "-0.05"],
    [-12345n, "-123.45"],
  ])("formatMinorUnits(%s) → %s", (minor, text) => {
    expect(formatMinorUnits(minor)).toBe(text)
  })

  it("normalizeAmount gives the canonical form", () => {
    expect(normalizeAmount("350")).toBe("350.00")
    expect(normalizeAmount(350.1)).toBe("350.10")
    expect(() => normalizeAmount("350.123")).toThrow(/at most two decimals/)
  })

  it("adds exactly where floats do not", () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(addAmounts("0.1", "0.2")).toBe("0.30")
    expect(addAmounts("24999.99", "0.01")).toBe("25000.00")
  })

  it.each([
    ["350", "350.00", 0],
    ["350.01", "350", 1],
    ["299.99", "300", -1],
    ["0.1", "0.10", 0],
  ])("compareAmounts(%s, %s) → %i", (a, b, expected) => {
    expect(compareAmounts(a, b)).toBe(expected)
  })
})

describe("assertAmountInRange", () => {
  const config = { minAmount: "300.00", maxAmount: "25000.00" }

  it.each([["300"], ["300.00"], ["25000"], ["1234.5"]])("accepts %s and returns canonical text", (amount) => {
    expect(assertAmountInRange(amount, config)).toBe(normalizeAmount(amount))
  })

  it.each([["299.99"], ["25000.01"], ["0"], ["-300"]])("refuses %s with AMOUNT_OUT_OF_RANGE", (amount) => {
    let error: PayLaterError | undefined
    try {
      assertAmountInRange(amount, config)
    } catch (caught) {
      error = caught as PayLaterError
    }
    expect(error).toBeInstanceOf(PayLaterError)
    expect(error?.code).toBe("AMOUNT_OUT_OF_RANGE")
    expect(error?.message).toBe("Amount must be between 300.00 and 25000.00 QAR")
    expect(error?.details).toMatchObject({ min: "300.00", max: "25000.00" })
  })

  it("uses the outlet's narrower range", () => {
    expect(() => assertAmountInRange("4000.01", { minAmount: "300.00", maxAmount: "4000.00" })).toThrow(
      "Amount must be between 300.00 and 4000.00 QAR"
    )
    expect(assertAmountInRange("4000", { minAmount: "300.00", maxAmount: "4000.00" })).toBe("4000.00")
  })

  it("refuses a badly formed amount with VALIDATION, not a range error", () => {
    expect(() => assertAmountInRange("350.001", config)).toThrow(expect.objectContaining({ code: "VALIDATION" }))
  })
})

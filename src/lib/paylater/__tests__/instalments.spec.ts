import fc from "fast-check"
import { formatMinorUnits, instalmentPlans, isPayLaterError, parseMinorUnits, splitIntoInstalments } from "../index"

describe("instalment plans", () => {
  it("always adds up to the total, with every instalment after the first equal and the first at most count-1 hundredths more", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.integer({ min: 2, max: 12 }), (minor, count) => {
        const plan = splitIntoInstalments(formatMinorUnits(minor), count, 30)
        const parts = plan.instalments.map((i) => parseMinorUnits(i.amount))
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(minor)
        expect(new Set(parts.slice(1)).size).toBeLessThanOrEqual(1)
        expect(parts[0] - parts[parts.length - 1]).toBeGreaterThanOrEqual(0n)
        expect(parts[0] - parts[parts.length - 1]).toBeLessThan(BigInt(count))
      })
    )
  })

  it("puts the remainder on the first instalment and dates the rest by the interval", () => {
    expect(splitIntoInstalments("100.03", 4, 14)).toEqual({
      count: 4,
      instalment_amount: "25.00",
      first_amount: "25.03",
      interval_days: 14,
      instalments: [
        { number: 1, amount: "25.03", due_after_days: 0 },
        { number: 2, amount: "25.00", due_after_days: 14 },
        { number: 3, amount: "25.00", due_after_days: 28 },
        { number: 4, amount: "25.00", due_after_days: 42 },
      ],
    })
  })

  it("lists each configured plan once, fewest instalments first", () => {
    expect(instalmentPlans("360", { counts: [6, 3, 6], intervalDays: 30 }).map((p) => [p.count, p.instalment_amount])).toEqual([
      [3, "120.00"],
      [6, "60.00"],
    ])
  })

  it.each([
    ["0", 4],
    ["-1.00", 4],
    ["10.001", 4],
    ["100", 1],
    ["100", 13],
    ["100", 2.5],
  ])("refuses amount %s in %d instalments with a VALIDATION error", (amount, count) => {
    let error: unknown
    try {
      splitIntoInstalments(amount, count, 30)
    } catch (e) {
      error = e
    }
    expect(isPayLaterError(error, "VALIDATION")).toBe(true)
  })
})

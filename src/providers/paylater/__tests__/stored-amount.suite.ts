import { storedAmountText } from "../money"

describe("a ledger row's amount as PayLater's two-decimal text", () => {
  it("reads the exact raw value before the numeric column", () => {
    // The numeric column can be a float's neighbour; the raw BigNumber is what was stored.
    expect(storedAmountText({ amount: 350.00499999, raw_amount: { value: "350.005", precision: 20 } })).toBe("350.01")
    expect(storedAmountText({ amount: 0, raw_amount: "120.5" })).toBe("120.50")
  })

  it("falls back to the numeric column when the raw one was not loaded", () => {
    expect(storedAmountText({ amount: 99.9 })).toBe("99.90")
    expect(storedAmountText({ amount: "7", raw_amount: null })).toBe("7.00")
  })
})

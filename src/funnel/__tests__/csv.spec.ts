import { csvField, csvLine, paymentCsvLine } from "../csv"
import type { PaymentRow } from "../payments-sql"

describe("the finance CSV's fields (RFC 4180)", () => {
  it("quotes a field with a comma, a quote or a line break, and doubles its quotes", () => {
    expect(csvField("plain")).toBe("plain")
    expect(csvField('PL-1, "gift"')).toBe('"PL-1, ""gift"""')
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"')
    expect(csvField(null)).toBe("")
    expect(csvLine(["a", "b"])).toBe("a,b\r\n")
  })

  it("keeps Arabic text as it is", () => {
    expect(csvField("مرجع-٢٠٢٦")).toBe("مرجع-٢٠٢٦")
  })

  it("does not let a spreadsheet run a text field as a formula, but leaves amounts alone", () => {
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)")
    expect(csvField("+1")).toBe("'+1")
    expect(csvField("-12.00", { text: false })).toBe("-12.00")
  })

  it("writes a payment with its paid time in the store's zone and the currency in capitals", () => {
    const row: PaymentRow = {
      paylater_order_id: "payses_1",
      paylater_ref: "PL 7",
      order_id: "order_1",
      order_display_id: 12,
      method: "link",
      paid_at: "2026-11-10T20:30:00.000Z",
      paid_at_local: "2026-11-10T23:30:00+03:00",
      amount: "350.00",
      refunded: "50.00",
      net: "300.00",
      status: "partially_refunded",
      currency_code: "qar",
      mobile_number_masked: null,
    }
    expect(paymentCsvLine(row)).toBe("payses_1,PL 7,12,link,2026-11-10T23:30:00+03:00,350.00,50.00,300.00,partially_refunded,QAR,\r\n")
  })
})

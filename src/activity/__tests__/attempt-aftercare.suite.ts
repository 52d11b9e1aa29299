import { aftercareOf, type ListingRow, type RefundRow } from "../attempt-aftercare"
import { orderAttempts } from "../order-attempts"
import { ledgerRow, T0, t } from "./ledger-row"

const refund = (over: Partial<RefundRow> = {}): RefundRow => ({
  paylater_order_id: "payses_a",
  amount: 360,
  raw_amount: { value: "360", precision: 20 },
  status: "succeeded",
  sent_at: t(700),
  settled_at: t(701),
  ...over,
})

const listing = (over: Partial<ListingRow> = {}): ListingRow => ({
  paylater_order_id: "payses_a",
  kind: "paid_without_order",
  status: "open",
  resolution: null,
  resolution_note: null,
  resolved_by: null,
  resolved_at: null,
  created_at: t(100),
  ...over,
})

describe("what became of a paid attempt (the order card, from the ledger)", () => {
  it("an extra payment listed and not yet refunded: listed, no refund", () => {
    expect(aftercareOf("payses_a", [], [listing()])).toEqual({
      refund: null,
      listing: { kind: "paid_without_order", status: "open", resolution: null, resolved_at: null },
    })
  })

  it("refunded automatically: the amount PayLater confirmed, when, by the rule", () => {
    const resolved = listing({ status: "resolved", resolution: "refunded", resolved_at: t(702), resolution_note: "Refunded 360.00 QAR in full automatically (paid without an order)." })
    expect(aftercareOf("payses_a", [refund()], [resolved])).toEqual({
      refund: { amount: "360.00", at: t(701), by: "rule", actor: null, note: "Refunded 360.00 QAR in full automatically (paid without an order)." },
      listing: { kind: "paid_without_order", status: "resolved", resolution: "refunded", resolved_at: t(702) },
    })
  })

  it("refunded from Settings → PayLater: by whom (their email when known), partial refunds added exactly", () => {
    const resolved = listing({ status: "resolved", resolution: "refunded", resolved_by: "user_1", resolved_at: t(900) })
    const refunds = [
      refund({ amount: 100.1, raw_amount: { value: "100.1", precision: 20 }, settled_at: t(800) }),
      refund({ amount: 0.2, raw_amount: { value: "0.2", precision: 20 }, settled_at: t(850) }),
      // Refused by PayLater or still unknown: not money returned.
      refund({ status: "failed", settled_at: t(860) }),
      refund({ status: "unknown", settled_at: null }),
      // Another attempt's refund.
      refund({ paylater_order_id: "payses_b" }),
    ]
    expect(aftercareOf("payses_a", refunds, [resolved], new Map([["user_1", "ops@example.com"]])).refund).toEqual({
      amount: "100.30",
      at: t(850),
      by: "person",
      actor: "ops@example.com",
      note: null,
    })
    expect(aftercareOf("payses_a", refunds, [resolved]).refund?.actor).toBe("user_1")
  })

  it("a refund an operator confirmed from PayLater's portal (outcome was unknown) counts, by that person", () => {
    const unknown = listing({ kind: "refund_outcome_unknown", status: "resolved", resolution: "refunded", resolved_by: "user_2", resolved_at: t(1000) })
    const after = aftercareOf("payses_a", [refund({ status: "refunded", settled_at: t(1000) })], [unknown])
    expect(after.refund).toMatchObject({ amount: "360.00", by: "person", actor: "user_2" })
    expect(after.listing).toMatchObject({ kind: "refund_outcome_unknown", resolution: "refunded" })
  })

  it("a refund with no listing (on the order itself) says so", () => {
    expect(aftercareOf("payses_a", [refund()], []).refund).toMatchObject({ by: "order", actor: null })
  })

  it("is carried on the order card's attempts", () => {
    const rows = [ledgerRow("payses_a", { state: "paid", created_at: t(0) }), ledgerRow("payses_b", { state: "paid", order_id: "order_1", payment_id: "pay_1" })]
    const list = orderAttempts(rows, "order_1", new Date(T0), { refunds: [refund()], listings: [listing({ status: "resolved", resolution: "refunded" })] })
    expect(list.map((a) => [a.paylater_order_id, a.outcome, a.refund?.by ?? null, a.listing?.status ?? null])).toEqual([
      ["payses_b", "holds_order_money", null, null],
      ["payses_a", "paid_elsewhere", "rule", "resolved"],
    ])
  })
})

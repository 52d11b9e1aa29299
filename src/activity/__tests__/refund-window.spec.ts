import { computeRefundWindow, REFUND_CLOSES_AFTER_MS, REFUND_OPENS_AFTER_MS } from "../refund-window"

const paidAt = new Date("2026-03-01T10:00:00.000Z")
const at = (ms: number) => new Date(paidAt.getTime() + ms)
const window = (nowMs: number, captured = "360.00", refunded = "0.00") =>
  computeRefundWindow({ paid_at: paidAt, captured_amount: captured, refunded_amount: refunded, now: at(nowMs) })

describe("computeRefundWindow", () => {
  it("is null when nothing was paid", () => {
    expect(computeRefundWindow({ paid_at: null, captured_amount: "0.00", refunded_amount: "0.00", now: paidAt })).toBeNull()
    expect(
      computeRefundWindow({ paid_at: new Date("nope"), captured_amount: "360.00", refunded_amount: "0.00", now: paidAt })
    ).toBeNull()
  })

  it("opens 10 minutes after the payment and closes 29 days after it", () => {
    const w = window(0)!
    expect(w.paid_at).toBe("2026-03-01T10:00:00.000Z")
    expect(w.opens_at).toBe("2026-03-01T10:10:00.000Z")
    expect(w.closes_at).toBe("2026-03-30T10:00:00.000Z")
  })

  it.each([
    [0, "not_yet_open"],
    [REFUND_OPENS_AFTER_MS - 1, "not_yet_open"],
    [REFUND_OPENS_AFTER_MS, "open"],
    [REFUND_CLOSES_AFTER_MS, "open"],
    [REFUND_CLOSES_AFTER_MS + 1, "closed"],
  ])("at +%d ms it is %s", (ms, state) => {
    expect(window(ms)!.state).toBe(state)
  })

  it("tracks what is still refundable, exactly in dirhams", () => {
    expect(window(REFUND_OPENS_AFTER_MS, "360.00", "100.50")).toMatchObject({ state: "open", refundable_amount: "259.50" })
    expect(window(REFUND_OPENS_AFTER_MS, "0.30", "0.10")!.refundable_amount).toBe("0.20")
  })

  it("reports a fully refunded payment as such, whatever the time", () => {
    expect(window(REFUND_OPENS_AFTER_MS, "360.00", "360.00")!.state).toBe("fully_refunded")
    expect(window(0, "360.00", "360.00")!.state).toBe("fully_refunded")
    expect(window(REFUND_CLOSES_AFTER_MS + 1, "360.00", "400.00")).toMatchObject({ state: "fully_refunded", refundable_amount: "0.00" })
  })
})

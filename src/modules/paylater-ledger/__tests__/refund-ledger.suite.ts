import { MedusaError } from "@medusajs/framework/utils"
import { decideRefund, refundedTotal, staleAttempts, type StoredRefundAttempt } from "../refund-ledger"
import type { BeginRefundInput } from "../types"

const input = (over: Partial<BeginRefundInput> = {}): BeginRefundInput => ({
  paylater_order_id: "payses_1",
  amount: "100.00",
  captured_amount: "360.00",
  stale_after_ms: 60_000,
  ...over,
})
let n = 0
const attempt = (status: StoredRefundAttempt["status"], amount: string, over: Partial<StoredRefundAttempt> = {}): StoredRefundAttempt => ({
  id: `plref_${++n}`,
  status,
  amount: Number(amount),
  raw_amount: { value: amount, precision: 20 },
  sent_at: new Date("2026-11-23T10:00:00Z"),
  ...over,
})
const refusal = (fn: () => unknown): MedusaError => {
  try {
    fn()
  } catch (e) {
    return e as MedusaError
  }
  throw new Error("expected a refusal")
}

describe("refund ledger rules", () => {
  it("counts only refunds paid out for sure, exactly, from the raw decimal text", () => {
    const attempts = ["0.10", "0.20", "0.30"].map((a) => attempt("succeeded", a))
    attempts.push(attempt("refunded", "100.05"), attempt("failed", "50.00"), attempt("not_refunded", "7.00"))
    expect(refundedTotal(attempts)).toBe("100.65")
  })

  it("sends the first refund of the whole amount as full, any other as partial", () => {
    expect(decideRefund([], input({ amount: "360.00" }))).toEqual({ mode: "send", refunded_before: "0.00", full: true })
    expect(decideRefund([], input())).toEqual({ mode: "send", refunded_before: "0.00", full: false })
    expect(decideRefund([attempt("succeeded", "60.00")], input({ amount: "300.00" }))).toEqual({
      mode: "send",
      refunded_before: "60.00",
      full: false,
    })
  })

  it.each([
    ["unknown", /outcome is unknown/],
    ["pending", /being sent to PayLater right now/],
  ] as const)("refuses while an attempt is %s", (status, message) => {
    const error = refusal(() => decideRefund([attempt(status, "20.00")], input()))
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(message)
  })

  it("refuses what would pass the paid amount, saying what is left", () => {
    const error = refusal(() => decideRefund([attempt("succeeded", "300.00")], input({ amount: "60.01" })))
    expect(error.message).toBe("PayLater has already refunded 300.00 of 360.00 QAR for this payment; at most 60.00 QAR can still be refunded.")
    expect(decideRefund([attempt("succeeded", "300.00")], input({ amount: "60.00" })).mode).toBe("send")
  })

  it("books a confirmed refund once, for its own amount only", () => {
    const confirmed = attempt("refunded", "100.00")
    expect(decideRefund([confirmed], input({ booking_attempt_id: confirmed.id }))).toEqual({
      mode: "book",
      refunded_before: "0.00",
      full: false,
    })
    expect(refusal(() => decideRefund([confirmed], input({ booking_attempt_id: confirmed.id, amount: "99.00" }))).type).toBe(
      MedusaError.Types.NOT_ALLOWED
    )
    const booked = { ...confirmed, booked_at: new Date() }
    expect(refusal(() => decideRefund([booked], input({ booking_attempt_id: booked.id }))).message).toMatch(/already recorded/)
    const unknown = attempt("unknown", "100.00")
    expect(refusal(() => decideRefund([unknown], input({ booking_attempt_id: unknown.id }))).type).toBe(MedusaError.Types.NOT_ALLOWED)
  })

  it("takes a pending attempt older than the limit as abandoned", () => {
    const now = new Date("2026-11-23T10:05:00Z")
    const old = attempt("pending", "1.00")
    const fresh = attempt("pending", "1.00", { sent_at: new Date("2026-11-23T10:04:30Z") })
    expect(staleAttempts([old, fresh, attempt("unknown", "1.00")], 60_000, now)).toEqual([old])
  })
})

import { decideReturn, type ReturnFacts } from "../return-destination"

const now = new Date("2026-01-01T12:00:00.000Z")
const facts = (over: Partial<ReturnFacts>): ReturnFacts => ({
  order_id: null,
  session_status: "pending",
  session_data: { expires_at: "2026-01-01T13:00:00.000Z" },
  outcome: undefined,
  now,
  ...over,
})

describe("decideReturn", () => {
  it("only an order means success, whatever the URL said", () => {
    expect(decideReturn(facts({ order_id: "order_1", outcome: "fail" }))).toEqual({ kind: "success", order_id: "order_1" })
    expect(decideReturn(facts({ outcome: "success" }))).toEqual({ kind: "pending" })
  })

  it("uses the reason recorded from PayLater's failed status", () => {
    const data = { paylater_status_code: 3 as const, paylater_failure_reason: "expired" as const }
    expect(decideReturn(facts({ session_status: "error", session_data: data }))).toEqual({ kind: "failure", reason: "expired" })
    expect(decideReturn(facts({ session_status: "error", session_data: {} }))).toEqual({ kind: "failure", reason: "declined" })
  })

  it("reports a paid session without an order as paid but not placed, never as declined", () => {
    expect(decideReturn(facts({ session_data: { paylater_status_code: 2 } }))).toEqual({ kind: "failure", reason: "paid_not_placed" })
    expect(decideReturn(facts({ session_status: "authorized", session_data: { paylater_status_code: 2 }, outcome: "fail" }))).toEqual({
      kind: "failure",
      reason: "paid_not_placed",
    })
  })

  it("tells expired, abandoned and pending apart for undecided payments", () => {
    expect(decideReturn(facts({ session_data: { expires_at: "2026-01-01T11:00:00.000Z" } }))).toEqual({
      kind: "failure",
      reason: "expired",
    })
    expect(decideReturn(facts({ outcome: "fail", session_data: { paylater_status_code: 1 } }))).toEqual({
      kind: "failure",
      reason: "abandoned",
    })
    expect(decideReturn(facts({ session_data: { paylater_status_code: 1 } }))).toEqual({ kind: "pending" })
  })
})

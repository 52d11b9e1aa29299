import { decidePaymentState, EXPIRY_GRACE_MS } from "../payment-state"

const NOW = new Date("2030-01-01T10:00:00.000Z")
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString()
const facts = (session_status: string, data: Record<string, unknown> = {}, order_id: string | null = null) => ({
  session_status,
  session_data: data,
  order_id,
})

describe("decidePaymentState", () => {
  it("waits with the seconds left until the expiry", () => {
    expect(decidePaymentState(facts("pending", { expires_at: at(90_500) }), NOW)).toEqual({
      status: "waiting",
      seconds_left: 91,
      expires_at: at(90_500),
    })
  })

  it("keeps waiting (0 s) just after the expiry until PayLater confirms, then gives up after the grace", () => {
    expect(decidePaymentState(facts("pending", { expires_at: at(-1000) }), NOW)).toMatchObject({ status: "waiting", seconds_left: 0 })
    expect(decidePaymentState(facts("pending", { expires_at: at(-EXPIRY_GRACE_MS - 1) }), NOW)).toEqual({ status: "expired" })
  })

  it("is paid only with an authorized session and an order", () => {
    expect(decidePaymentState(facts("authorized", {}, "order_1"), NOW)).toEqual({ status: "paid", order_id: "order_1" })
    expect(decidePaymentState(facts("authorized"), NOW)).toEqual({ status: "processing" })
    expect(decidePaymentState(facts("pending", { paylater_status_code: 2 }, "order_1"), NOW)).toEqual({ status: "processing" })
  })

  it("tells a decline from an expiry", () => {
    expect(decidePaymentState(facts("error", { paylater_status_code: 3, paylater_failure_reason: "declined" }), NOW)).toEqual({ status: "declined" })
    expect(decidePaymentState(facts("canceled", { paylater_status_code: 3, paylater_failure_reason: "expired" }), NOW)).toEqual({ status: "expired" })
  })
})

import { checkoutOutcomeOf, computeFunnel, outcomeOf, PLACING_GRACE_MS, type FunnelAttempt, type FunnelRefund } from "../definitions"
import { periodOf, previousPeriod } from "../period"

const ZONE = "Asia/Qatar"
// 2026-11-10 12:00 in Doha (UTC+3).
const NOON = new Date("2026-11-10T09:00:00Z")
const min = (n: number) => new Date(NOON.getTime() + n * 60_000)
const NOW = new Date("2026-11-20T09:00:00Z")

let seq = 0
function attempt(over: Partial<FunnelAttempt> = {}): FunnelAttempt {
  seq += 1
  return {
    paylater_order_id: `payses_${seq}`,
    kind: "link",
    cart_id: `cart_${seq}`,
    payment_collection_id: `pay_col_${seq}`,
    session_id: `payses_${seq}`,
    amount: "100.00",
    currency_code: "qar",
    state: "open",
    created_at: NOON,
    last_status_at: null,
    paid_at: null,
    expires_at: min(60),
    order_id: null,
    superseded_by: null,
    session_gone_at: null,
    start_error: null,
    ...over,
  }
}
const paid = (over: Partial<FunnelAttempt> = {}) => attempt({ state: "paid", last_status_at: min(3), paid_at: min(3), order_id: "order_1", ...over })

const nov10 = periodOf("2026-11-10", "2026-11-10", ZONE)
const report = (attempts: FunnelAttempt[], refunds: FunnelRefund[] = [], period = nov10, now = NOW) =>
  computeFunnel({ attempts, refunds, period, previous: previousPeriod(period), now })

describe("an attempt's outcome", () => {
  it.each([
    ["paid with an order", paid(), "placed"],
    ["paid, no order, just now", attempt({ state: "paid", last_status_at: min(0), paid_at: min(0) }), "placing"],
    ["paid, no order, long ago", attempt({ state: "paid", last_status_at: min(0), paid_at: min(0) }), "paid_without_order"],
    ["declined by PayLater", attempt({ state: "declined" }), "declined"],
    ["refused at creation", attempt({ state: "never_started", start_error: "AMOUNT_OUT_OF_RANGE" }), "declined"],
    ["expired by PayLater", attempt({ state: "expired" }), "expired"],
    ["open past its expiry", attempt({ state: "open", expires_at: min(10) }), "expired"],
    ["open, replaced by a newer attempt", attempt({ superseded_by: "payses_x" }), "abandoned"],
    ["open, its session deleted", attempt({ session_gone_at: min(1) }), "abandoned"],
    ["open, within its expiry", attempt({ expires_at: min(60) }), "open"],
  ] as const)("%s", (_, row, expected) => {
    const now = expected === "placing" ? new Date(min(0).getTime() + PLACING_GRACE_MS - 1) : expected === "open" ? min(5) : NOW
    expect(outcomeOf(row, now)).toBe(expected)
  })

  it("a checkout is paid if any attempt was, else it is what its latest attempt was", () => {
    const at = (n: number) => ({ created_at: min(n), paylater_order_id: `p${n}` })
    expect(checkoutOutcomeOf([{ outcome: "declined", ...at(0) }, { outcome: "placed", ...at(1) }])).toBe("placed")
    expect(checkoutOutcomeOf([{ outcome: "expired", ...at(5) }, { outcome: "declined", ...at(1) }])).toBe("expired")
    expect(checkoutOutcomeOf([{ outcome: "paid_without_order", ...at(0) }, { outcome: "placed", ...at(1) }])).toBe("placed")
  })

  it("two attempts of a checkout created at the same instant: the one later in OUTCOMES is the latest (as the SQL's key orders them)", () => {
    expect(checkoutOutcomeOf([{ outcome: "open", created_at: min(1) }, { outcome: "declined", created_at: min(1) }])).toBe("open")
    expect(checkoutOutcomeOf([{ outcome: "abandoned", created_at: min(1) }, { outcome: "expired", created_at: min(1) }])).toBe("abandoned")
    expect(checkoutOutcomeOf([{ outcome: "open", created_at: min(1) }, { outcome: "declined", created_at: min(2) }])).toBe("declined")
  })
})

describe("paid at: when PayLater first said paid, not its last word", () => {
  // Paid at 12:03 on 10 November; PayLater asked again on the 12th (an admin's check): last_status_at moved.
  const asked = paid({ paylater_order_id: "payses_asked", amount: "410.00", last_status_at: new Date("2026-11-12T08:00:00Z") })

  it("counts the payment on the day it was paid, and its time to pay up to then", () => {
    const r = report([asked])
    expect(r.methods.total.money).toEqual({ payments: 1, paid: "410.00", refunded: "0.00", net: "410.00" })
    expect(r.methods.total.time_to_pay).toEqual({ median_s: 180, p90_s: 180 })
    expect(r.daily[0]).toMatchObject({ date: "2026-11-10", payments: 1, paid: "410.00" })
    expect(report([asked], [], periodOf("2026-11-12", "2026-11-12", ZONE)).methods.total.money.payments).toBe(0)
  })

  it("an order not yet placed is being placed for 10 minutes after the payment, however recently PayLater was asked", () => {
    const row = attempt({ state: "paid", paid_at: min(0), last_status_at: min(30) })
    expect(outcomeOf(row, min(9))).toBe("placing")
    expect(outcomeOf(row, min(11))).toBe("paid_without_order")
  })
})

describe("Request to Pay look-up refusals", () => {
  it("counts the Requests to Pay refused before a push for who the shopper is, apart from the pushes", () => {
    const rtp = (over: Partial<FunnelAttempt>) => attempt({ kind: "request_to_pay", ...over })
    const r = report([
      rtp({ state: "never_started", start_error: "paylater_not_eligible" }),
      rtp({ state: "never_started", start_error: "paylater_rtp_try_later" }),
      rtp({ state: "never_started", start_error: "AMOUNT_OUT_OF_RANGE" }),
      // A link refused for the shopper is not a Request to Pay's.
      attempt({ state: "never_started", start_error: "paylater_not_eligible" }),
      rtp({ state: "declined" }),
      paid({ kind: "request_to_pay" }),
    ])
    expect(r.request_to_pay).toEqual({ pushes_sent: 2, approved: 1, declined: 1, expired: 0, abandoned: 0, open: 0, lookup_refusals: 2 })
    // They are attempts that were refused: declined in the funnel, and listed among the errors.
    expect(r.methods.request_to_pay.attempts).toMatchObject({ started: 5, declined: 4, paid: 1 })
    expect(r.errors).toEqual(expect.arrayContaining([{ code: "paylater_not_eligible", count: 2 }, { code: "paylater_rtp_try_later", count: 1 }]))
  })
})

describe("the funnel over the issue's edge cases", () => {
  it("a declined Request to Pay then a paid link: one paid checkout, one declined attempt, each method seen on its own", () => {
    const rtp = attempt({ kind: "request_to_pay", cart_id: "cart_a", state: "declined", last_status_at: min(2), superseded_by: "link" })
    const link = paid({ cart_id: "cart_a", created_at: min(4), last_status_at: min(9), paid_at: min(9), amount: "250.50" })
    const r = report([rtp, link])
    expect(r.methods.total.checkouts).toMatchObject({ started: 1, paid: 1, placed: 1, declined: 0 })
    expect(r.methods.total.attempts).toMatchObject({ started: 2, paid: 1, placed: 1, declined: 1 })
    expect(r.methods.total.conversion).toEqual({ checkouts: 1, attempts: 0.5 })
    expect(r.methods.request_to_pay.checkouts).toMatchObject({ started: 1, paid: 0, declined: 1 })
    expect(r.methods.link.checkouts).toMatchObject({ started: 1, paid: 1 })
    expect(r.request_to_pay).toMatchObject({ pushes_sent: 1, approved: 0, declined: 1 })
    expect(r.methods.total.time_to_pay).toEqual({ median_s: 300, p90_s: 300 })
    expect(r.methods.total.money).toEqual({ payments: 1, paid: "250.50", refunded: "0.00", net: "250.50" })
  })

  it("a checkout paid twice: one paid checkout, two paid attempts, the second one's money without an order", () => {
    const first = paid({ cart_id: "cart_b", paylater_order_id: "payses_b" })
    const second = attempt({ cart_id: "cart_b", paylater_order_id: "payses_b-2", state: "paid", created_at: min(1), last_status_at: min(4), paid_at: min(4) })
    const r = report([first, second])
    expect(r.methods.total.checkouts).toMatchObject({ started: 1, paid: 1, placed: 1, paid_without_order: 0 })
    expect(r.methods.total.attempts).toMatchObject({ started: 2, paid: 2, placed: 1, paid_without_order: 1 })
    expect(r.methods.total.money).toMatchObject({ payments: 2, paid: "200.00" })
  })

  it("a point-of-sale order: its own method, placed on the order it was for", () => {
    const pos = paid({ kind: "point_of_sale", cart_id: null, payment_collection_id: "pay_col_order", order_id: "order_pos", amount: "75.25" })
    const r = report([pos])
    expect(r.methods.point_of_sale.checkouts).toMatchObject({ started: 1, paid: 1, placed: 1 })
    expect(r.methods.link.checkouts.started).toBe(0)
    expect(r.methods.total.money.paid).toBe("75.25")
  })

  it("a refund in a later period than its payment counts in the refund's period, and in the payment's only from the period after", () => {
    const pay = paid({ paylater_order_id: "payses_r", amount: "300.00" })
    const refund: FunnelRefund = { paylater_order_id: "payses_r", amount: "120.00", status: "succeeded", sent_at: new Date("2026-11-12T10:00:00Z") }
    const failed: FunnelRefund = { ...refund, amount: "50.00", status: "failed" }
    const paymentDay = report([pay], [refund, failed])
    expect(paymentDay.methods.total.money).toEqual({ payments: 1, paid: "300.00", refunded: "0.00", net: "300.00" })
    expect(paymentDay.methods.total.refunds).toEqual({ count: 0, amount: "0.00" })
    const refundDay = report([pay], [refund, failed], periodOf("2026-11-12", "2026-11-12", ZONE))
    expect(refundDay.methods.total.refunds).toEqual({ count: 1, amount: "120.00" })
    expect(refundDay.methods.link.refunds).toEqual({ count: 1, amount: "120.00" })
    expect(refundDay.methods.total.money.payments).toBe(0)
    const both = report([pay], [refund, failed], periodOf("2026-11-10", "2026-11-12", ZONE))
    expect(both.methods.total.money).toEqual({ payments: 1, paid: "300.00", refunded: "120.00", net: "180.00" })
  })

  it("days are the store's: 23:30 in Doha is that day, 00:30 the next, whatever UTC says", () => {
    const late = paid({ created_at: new Date("2026-11-10T20:30:00Z"), last_status_at: new Date("2026-11-10T20:31:00Z"), paid_at: new Date("2026-11-10T20:31:00Z") }) // 23:30 Doha
    const early = paid({ created_at: new Date("2026-11-10T21:30:00Z"), last_status_at: new Date("2026-11-10T21:31:00Z"), paid_at: new Date("2026-11-10T21:31:00Z") }) // 00:30 Doha, 11-11
    const r = report([late, early], [], periodOf("2026-11-10", "2026-11-11", ZONE))
    expect(r.daily.map((d) => [d.date, d.started, d.payments])).toEqual([
      ["2026-11-10", 1, 1],
      ["2026-11-11", 1, 1],
    ])
    expect(report([late, early]).methods.total.checkouts.started).toBe(1)
  })

  it("compares conversion with the previous period of the same length", () => {
    const before = [attempt({ created_at: new Date(NOON.getTime() - 86_400_000), state: "declined" }), paid({ created_at: new Date(NOON.getTime() - 86_400_000) })]
    const r = report([...before, paid()])
    expect(r.methods.total.previous_conversion.checkouts).toBe(0.5)
    expect(r.methods.total.conversion_change.checkouts).toBe(50)
  })

  it("lists the most frequent error codes, most frequent first", () => {
    const rows = [
      attempt({ state: "never_started", start_error: "B" }),
      attempt({ state: "never_started", start_error: "A" }),
      attempt({ state: "never_started", start_error: "B" }),
      attempt({ state: "open", start_error: "TIMEOUT" }),
    ]
    expect(report(rows).errors).toEqual([
      { code: "B", count: 2 },
      { code: "A", count: 1 },
      { code: "TIMEOUT", count: 1 },
    ])
  })

  it("nothing started: no conversion rather than 0%", () => {
    const r = report([])
    expect(r.methods.total.conversion).toEqual({ checkouts: null, attempts: null })
    expect(r.daily).toEqual([{ date: "2026-11-10", paid: "0.00", payments: 0, started: 0, converted: 0, conversion: null }])
  })
})

import { decideLeftoverOrder, type LeftoverOrderFacts } from "../leftover-order"
import { OWNER_SETTLES_WITHIN_MS } from "../whose-money"

const NOW = new Date("2026-12-02T08:10:00Z")
const placedAt = (msAgo: number) => new Date(NOW.getTime() - msAgo)
const PAST_BOUND = OWNER_SETTLES_WITHIN_MS + 1_000

/** The fault campaign's leftover (seed 198548656): two declined requests, the order and nothing else. */
const leftover = (over: Partial<LeftoverOrderFacts> = {}, order: Partial<LeftoverOrderFacts["order"]> = {}): LeftoverOrderFacts => ({
  order: { id: "order_1", created_at: placedAt(PAST_BOUND), status: "pending", is_draft_order: false, version: 1, total: 360, fulfillments: 0, transactions: 0, changes: 0, ...order },
  live_payments: 0,
  sessions: [
    { paylater: true, status: "canceled" },
    { paylater: true, status: "error" },
  ],
  attempt_states: ["declined", "declined"],
  ...over,
})

describe("decideLeftoverOrder: a dead completion's order with no money anywhere", () => {
  it("undoes it past the bound when every attempt ended without money", () => {
    expect(decideLeftoverOrder(leftover(), NOW)).toEqual({ step: "undo" })
    for (const state of ["declined", "expired", "never_started"] as const) {
      expect(decideLeftoverOrder(leftover({ attempt_states: [state] }), NOW)).toEqual({ step: "undo" })
    }
    expect(decideLeftoverOrder(leftover({}, { total: "0.01" }), NOW)).toEqual({ step: "undo" })
  })

  it("waits until no completion of the cart can still reach the authorization", () => {
    const createdAt = placedAt(OWNER_SETTLES_WITHIN_MS - 1_000)
    expect(decideLeftoverOrder(leftover({}, { created_at: createdAt }), NOW)).toEqual({
      step: "wait",
      until: new Date(createdAt.getTime() + OWNER_SETTLES_WITHIN_MS),
    })
    expect(decideLeftoverOrder(leftover({}, { created_at: createdAt.toISOString() }), new Date(createdAt.getTime() + OWNER_SETTLES_WITHIN_MS))).toEqual({ step: "undo" })
  })

  it("leaves an order that holds a payment of any method (every successful completion records one)", () => {
    expect(decideLeftoverOrder(leftover({ live_payments: 1 }), NOW)).toEqual({ step: "leave", why: "paid" })
    for (const status of ["authorized", "captured"]) {
      expect(decideLeftoverOrder(leftover({ sessions: [{ paylater: true, status }] }), NOW)).toEqual({ step: "leave", why: "paid" })
    }
  })

  it("leaves an order of a method that authorizes later (a real order with no payment yet), even a session since left", () => {
    expect(decideLeftoverOrder(leftover({ sessions: [{ paylater: false, status: "pending_authorization" }] }), NOW)).toEqual({ step: "leave", why: "paid" })
    expect(decideLeftoverOrder(leftover({ sessions: [{ paylater: true, status: "error" }, { paylater: false, status: "pending" }] }), NOW)).toEqual({
      step: "leave",
      why: "other_method",
    })
  })

  it("leaves an attempt that is or may still be paid to settlement (a half-made order gets its money)", () => {
    for (const state of ["paid", "open", "starting"] as const) {
      expect(decideLeftoverOrder(leftover({ attempt_states: ["declined", state] }), NOW)).toEqual({ step: "leave", why: "money_possible" })
    }
  })

  it("leaves an order someone acted on, a free order, and a cart with no PayLater attempt", () => {
    for (const status of ["canceled", "completed", "archived", "requires_action"]) {
      expect(decideLeftoverOrder(leftover({}, { status }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    }
    expect(decideLeftoverOrder(leftover({}, { is_draft_order: true }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    expect(decideLeftoverOrder(leftover({}, { version: 2 }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    expect(decideLeftoverOrder(leftover({}, { changes: 1 }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    expect(decideLeftoverOrder(leftover({}, { fulfillments: 1 }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    expect(decideLeftoverOrder(leftover({}, { transactions: 1 }), NOW)).toEqual({ step: "leave", why: "acted_on" })
    expect(decideLeftoverOrder(leftover({}, { total: 0 }), NOW)).toEqual({ step: "leave", why: "free" })
    expect(decideLeftoverOrder(leftover({ attempt_states: [] }), NOW)).toEqual({ step: "leave", why: "no_attempt" })
  })
})

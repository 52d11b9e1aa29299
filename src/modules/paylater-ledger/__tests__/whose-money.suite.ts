import type { BigNumberInput } from "@medusajs/framework/types"
import { decideOwner, heldByNoOrder, OWNER_SETTLES_WITHIN_MS, ownerSentence, type CollectionMoney, type CollectionPayment, type OwnedRow } from "../whose-money"

const NOW = new Date("2026-11-26T12:00:00Z")
const placedAt = (msAgo: number) => new Date(NOW.getTime() - msAgo)

// An attempt's PayLater order id is its session's id ("-2", "-3" for retries); a payment names the attempt it was authorized for.
const paid = (over: Partial<OwnedRow> = {}): OwnedRow => ({
  state: "paid",
  session_id: "ps_1",
  paylater_order_id: over.session_id ?? "ps_1",
  order_id: null,
  payment_id: null,
  ...over,
})

const payment = (over: Partial<CollectionPayment> = {}): CollectionPayment => ({
  id: "pay_1",
  session_id: "ps_1",
  paylater: true,
  attempt: over.paylater === false ? null : (over.session_id ?? "ps_1"),
  canceled: false,
  created_at: placedAt(60_000),
  held: false,
  ...over,
})

const order = (payments: CollectionPayment[], msAgo = 1_000): CollectionMoney => ({ order: { id: "order_1", created_at: placedAt(msAgo) }, payments })

describe("decideOwner: whose money a paid attempt is", () => {
  it("nobody's until PayLater said paid", () => {
    for (const state of ["starting", "open", "declined", "expired", "never_started"]) {
      expect(decideOwner(paid({ state }), order([payment({ held: true })]), NOW)).toEqual({ owner: "not_paid" })
    }
    expect(decideOwner(null, null, NOW)).toEqual({ owner: "not_paid" })
  })

  it("a recorded owner is final, whatever Medusa's records say now", () => {
    const row = paid({ order_id: "order_9", payment_id: "pay_9" })
    expect(decideOwner(row, null, NOW)).toEqual({ owner: "this_order", order_id: "order_9", payment_id: "pay_9", recorded: true, medusa_holds: true })
    expect(decideOwner(row, order([payment({ id: "pay_other", session_id: "ps_other", held: true })]), NOW)).toMatchObject({
      owner: "this_order",
      recorded: true,
    })
  })

  it("no order on the collection: paid without an order", () => {
    expect(decideOwner(paid(), null, NOW)).toEqual({ owner: "no_order" })
    expect(decideOwner(paid(), { order: null, payments: [payment()] }, NOW)).toEqual({ owner: "no_order" })
  })

  it("the order's transactions hold this attempt's payment: this order's, to be recorded", () => {
    expect(decideOwner(paid(), order([payment({ held: true })]), NOW)).toEqual({
      owner: "this_order",
      order_id: "order_1",
      payment_id: "pay_1",
      recorded: false,
      medusa_holds: true,
    })
  })

  it("the order holds another PayLater payment (paid twice): extra", () => {
    const money = order([payment(), payment({ id: "pay_2", session_id: "ps_2", held: true })])
    expect(decideOwner(paid(), money, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "paylater" })
  })

  it("the order was placed with another method (no capture transaction names it): extra at once, never 'cannot tell'", () => {
    const money = order([payment(), payment({ id: "pay_sys", session_id: "ps_sys", paylater: false })])
    expect(decideOwner(paid(), money, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "other_method" })
    // Also when the failed completion canceled the PayLater payment in Medusa.
    const canceled = order([payment({ canceled: true }), payment({ id: "pay_sys", session_id: "ps_sys", paylater: false })])
    expect(decideOwner(paid(), canceled, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "other_method" })
  })

  it("an attempt Medusa never recorded (detached, superseded, canceled) cannot be the order's: extra", () => {
    expect(decideOwner(paid({ session_id: "ps_gone" }), order([payment()]), NOW)).toEqual({
      owner: "extra",
      order_id: "order_1",
      held_by: "none_of_this_attempt",
    })
    expect(decideOwner(paid(), order([payment({ canceled: true })]), NOW)).toMatchObject({ owner: "extra" })
  })

  it("cannot tell while the order's completion may still be writing its transaction, and only for a bounded time", () => {
    const young = order([payment()], 10_000)
    const decision = decideOwner(paid(), young, NOW)
    expect(decision).toEqual({ owner: "cannot_tell", order_id: "order_1", until: new Date(placedAt(10_000).getTime() + OWNER_SETTLES_WITHIN_MS) })
    // Past the bound it is decided: the order holds the collection's only PayLater payment, and
    // Medusa's completion died before recording it on the order (its records are to be finished).
    const later = new Date(NOW.getTime() + OWNER_SETTLES_WITHIN_MS)
    expect(decideOwner(paid(), young, later)).toEqual({ owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded: false, medusa_holds: false })
  })

  it("past the bound with two PayLater payments and no transaction: the first Medusa recorded is the order's, the other extra", () => {
    const money = order(
      [payment({ id: "pay_b", session_id: "ps_b", created_at: placedAt(30_000) }), payment({ id: "pay_a", session_id: "ps_a", created_at: placedAt(50_000) })],
      OWNER_SETTLES_WITHIN_MS + 1
    )
    expect(decideOwner(paid({ session_id: "ps_a" }), money, NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_a" })
    expect(decideOwner(paid({ session_id: "ps_b" }), money, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "paylater" })
  })

  describe("a collection added to the order later (the admin's, the point of sale's)", () => {
    // A crash left the checkout's PayLater payment unrecorded on its order (no capture transaction);
    // staff then took money for the order on a collection of its own.
    const halfMade = (added: CollectionPayment[], total: BigNumberInput | null = "360.00"): CollectionMoney => ({
      order: { id: "order_1", created_at: placedAt(OWNER_SETTLES_WITHIN_MS + 1), total },
      payments: [payment(), ...added],
    })
    const cash = (amount: string, over: Partial<CollectionPayment> = {}) =>
      payment({ id: "pay_cash", session_id: "ps_cash", paylater: false, added: true, amount, held: true, ...over })

    it("paid the order's whole total again: the checkout's PayLater payment is extra (the shopper paid twice)", () => {
      expect(decideOwner(paid(), halfMade([cash("360.00")]), NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "other_method" })
      expect(decideOwner(paid(), halfMade([cash("400.00", { held: false })]), NOW)).toMatchObject({ owner: "extra", held_by: "other_method" })
      // Another PayLater payment of the whole at the point of sale, likewise.
      const rtp = payment({ id: "pay_rtp", session_id: "ps_rtp", added: true, amount: "360.00", held: true })
      expect(decideOwner(paid(), halfMade([rtp]), NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "paylater" })
    })

    it("paid less than the order's total (an order edit's difference): the checkout's money stays the order's", () => {
      // The order was edited from 360 to 410; staff collected the 50 of the difference.
      expect(decideOwner(paid(), halfMade([cash("50.00")], "410.00"), NOW)).toEqual({
        owner: "this_order",
        order_id: "order_1",
        payment_id: "pay_1",
        recorded: false,
        medusa_holds: false,
      })
      // Several added payments count together; a canceled one counts for nothing.
      const parts = [cash("200.00"), cash("100.00", { id: "pay_cash_2" }), cash("300.00", { id: "pay_void", canceled: true })]
      expect(decideOwner(paid(), halfMade(parts), NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_1" })
      expect(decideOwner(paid(), halfMade([cash("200.00"), cash("160.00", { id: "pay_cash_2" })]), NOW)).toMatchObject({ owner: "extra", held_by: "other_method" })
    })

    it("counts amounts exactly (a BigNumber's raw value too), never a float", () => {
      expect(decideOwner(paid(), halfMade([cash("360.00")], "360.01"), NOW)).toMatchObject({ owner: "this_order" })
      expect(decideOwner(paid(), halfMade([cash("0.1"), cash("0.2", { id: "pay_cash_2" })], "0.3"), NOW)).toMatchObject({ owner: "extra" })
      expect(decideOwner(paid(), halfMade([cash("0", { amount: { value: "360", precision: 20 } })], { value: "360", precision: 20 }), NOW)).toMatchObject({ owner: "extra" })
    })

    it("with the order's total unknown every added payment counts, as a payment on the order", () => {
      expect(decideOwner(paid(), halfMade([cash("50.00")], null), NOW)).toMatchObject({ owner: "extra", held_by: "other_method" })
    })

    it("a payment on the checkout's own collection is never weighed: another method there placed the order", () => {
      const own = payment({ id: "pay_cash", session_id: "ps_cash", paylater: false, amount: "1.00" })
      expect(decideOwner(paid(), order([payment(), own]), NOW)).toMatchObject({ owner: "extra", held_by: "other_method" })
    })
  })

  it("a superseded attempt paid too is extra when its session's payment was authorized for the retry", () => {
    const money = order([payment({ attempt: "ps_1-2", held: true })])
    expect(decideOwner(paid({ superseded_by: "ps_1-2" }), money, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "paylater" })
    expect(decideOwner(paid({ paylater_order_id: "ps_1-2" }), money, NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_1" })
  })

  it("authorized for the first attempt before a retry replaced it: the first is the order's, the paid retry extra", () => {
    // Fault campaign: the first create's answer was lost, the first link was paid and placed while the
    // provider retried as "-2", and the shopper paid "-2" too.
    const money = order([payment({ attempt: "ps_1", held: true })])
    expect(decideOwner(paid({ superseded_by: "ps_1-2" }), money, NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_1" })
    expect(decideOwner(paid({ paylater_order_id: "ps_1-2" }), money, NOW)).toEqual({ owner: "extra", order_id: "order_1", held_by: "paylater" })
    // Even when a link on the retry's row names the payment: the payment's own attempt decides.
    expect(decideOwner(paid({ paylater_order_id: "ps_1-2", payment_id: "pay_1" }), money, NOW)).toMatchObject({ owner: "extra" })
  })

  it("a payment naming no attempt is the session's current attempt's", () => {
    const money = order([payment({ attempt: null, held: true })])
    expect(decideOwner(paid(), money, NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_1" })
    expect(decideOwner(paid({ superseded_by: "ps_1-2" }), money, NOW)).toMatchObject({ owner: "extra" })
  })

  it("a recorded payment id is matched before the session's", () => {
    const money = order([payment({ id: "pay_x", session_id: "ps_other", attempt: "ps_1", held: true }), payment({ held: false, attempt: "ps_1" })])
    expect(decideOwner(paid({ payment_id: "pay_x" }), money, NOW)).toMatchObject({ owner: "this_order", payment_id: "pay_x" })
  })

  it("only extra and no-order money is the list's", () => {
    expect(heldByNoOrder({ owner: "no_order" })).toBe(true)
    expect(heldByNoOrder({ owner: "extra", order_id: "o", held_by: "paylater" })).toBe(true)
    expect(heldByNoOrder({ owner: "cannot_tell", order_id: "o", until: NOW })).toBe(false)
    expect(heldByNoOrder({ owner: "this_order", order_id: "o", payment_id: "p", recorded: true, medusa_holds: true })).toBe(false)
    expect(heldByNoOrder({ owner: "not_paid" })).toBe(false)
  })

  it("says each decision in one line an operator can act on", () => {
    expect(ownerSentence({ owner: "extra", order_id: "order_1", held_by: "other_method" })).toMatch(/another payment method.*paid twice/)
    expect(ownerSentence({ owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded: true, medusa_holds: true })).toContain("order_1")
  })
})

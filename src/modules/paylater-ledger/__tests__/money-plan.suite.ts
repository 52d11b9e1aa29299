import { planMoney, PROCESSABLE_SESSION_STATUSES, type MoneyFacts } from "../money-plan"
import type { Owner } from "../whose-money"

const noOrder: Owner = { owner: "no_order" }
const extra: Owner = { owner: "extra", order_id: "order_1", held_by: "paylater" }
const mine: Owner = { owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded: true, medusa_holds: true }
const unsure: Owner = { owner: "cannot_tell", order_id: "order_1", until: new Date("2026-11-28T12:05:00Z") }

const facts = (over: Partial<MoneyFacts>): MoneyFacts => ({
  owner: noOrder,
  given_back: false,
  medusa_session: { id: "ps_1", status: "authorized" },
  medusa_payment: { id: "pay_1", canceled: false, captured: false },
  refunded_in_full: false,
  ...over,
})

describe("planMoney: Medusa's records follow the ledger", () => {
  it("money given back (in full or in part) that no order holds: Medusa's session is retired and no order may take it", () => {
    for (const owner of [noOrder, extra]) {
      expect(planMoney(facts({ owner, given_back: true }))).toMatchObject({ retire_session: "ps_1", may_become_order: false })
    }
  })

  it("money given back that no order holds: Medusa's authorized payment is canceled, so nobody can capture it on the order page", () => {
    for (const owner of [noOrder, extra]) {
      expect(planMoney(facts({ owner, given_back: true })).cancel_payment).toBe("pay_1")
    }
    // Already canceled, or captured (an order's record of money received: its refund is recorded there), or none: nothing to cancel.
    for (const medusa_payment of [{ id: "pay_1", canceled: true, captured: false }, { id: "pay_1", canceled: false, captured: true }, null]) {
      expect(planMoney(facts({ given_back: true, medusa_payment })).cancel_payment).toBeNull()
    }
    // Not given back, or the order's own money, or not yet decided: Medusa's payment is left as it is.
    for (const over of [{ given_back: false }, { owner: mine, given_back: true }, { owner: unsure, given_back: true }]) {
      expect(planMoney(facts(over)).cancel_payment).toBeNull()
    }
  })

  it("retires every status a completion would take, and nothing already out of its reach", () => {
    for (const status of PROCESSABLE_SESSION_STATUSES) {
      expect(planMoney(facts({ given_back: true, medusa_session: { id: "ps_1", status } })).retire_session).toBe("ps_1")
    }
    for (const status of ["canceled", "error"]) {
      expect(planMoney(facts({ given_back: true, medusa_session: { id: "ps_1", status } }))).toMatchObject({ retire_session: null, may_become_order: false })
    }
    expect(planMoney(facts({ given_back: true, medusa_session: null }))).toMatchObject({ retire_session: null, may_become_order: false })
  })

  it("money given back that Medusa never recorded, beside a session that holds another attempt's payment: that session is left alone", () => {
    // A retried link paid after the first one's payment was recorded on the session (and placed): refunding it must not cancel the order's session.
    for (const owner of [noOrder, extra]) {
      for (const status of ["authorized", "captured"]) {
        expect(planMoney(facts({ owner, given_back: true, medusa_payment: null, medusa_session: { id: "ps_1", status } }))).toMatchObject({ retire_session: null, cancel_payment: null, may_become_order: false })
      }
      // Unrecorded yet, the session is this attempt's road to a completion: retired.
      expect(planMoney(facts({ owner, given_back: true, medusa_payment: null, medusa_session: { id: "ps_1", status: "pending" } })).retire_session).toBe("ps_1")
    }
  })

  it("paid, nothing given back, no order yet: it may still become the cart's order; Medusa's session is left as it is", () => {
    expect(planMoney(facts({}))).toMatchObject({ retire_session: null, may_become_order: true })
  })

  it("an extra payment never becomes an order, and is retired only once money went back", () => {
    expect(planMoney(facts({ owner: extra }))).toMatchObject({ retire_session: null, may_become_order: false })
  })

  it("the order's own money is never unpicked, even after a refund (that is the order's refund)", () => {
    expect(planMoney(facts({ owner: mine, given_back: true }))).toMatchObject({ retire_session: null, may_become_order: true })
  })

  it("while an order is being placed, or before PayLater said paid, nothing changes and nothing completes", () => {
    expect(planMoney(facts({ owner: unsure, given_back: true }))).toMatchObject({ retire_session: null, may_become_order: false })
    expect(planMoney(facts({ owner: { owner: "not_paid" }, given_back: true }))).toMatchObject({ retire_session: null, may_become_order: false })
  })
})

describe("planMoney: the list's side (Settings → PayLater), one decision for every road that acts on it", () => {
  it("money an order holds closes its item, nothing refunded from the list, also after a partial refund", () => {
    for (const given_back of [false, true]) {
      const { list } = planMoney(facts({ owner: mine, given_back }))
      expect(list).toEqual({ step: "close_held", note: expect.stringMatching(/^Order order_1 holds this payment .* Nothing refunded\.$/) })
    }
  })

  it("money an order holds that PayLater gave back in full (the order page's refund) closes its item as refunded, never 'Nothing refunded.'", () => {
    expect(planMoney(facts({ owner: mine, given_back: true, refunded_in_full: true })).list).toEqual({
      step: "close_refunded",
      note: "Refunded in full at PayLater.",
    })
  })

  it("money no order holds, or extra beside the order's, is refundable until PayLater gave all of it back", () => {
    for (const owner of [noOrder, extra]) {
      expect(planMoney(facts({ owner })).list).toEqual({ step: "refundable" })
      expect(planMoney(facts({ owner, given_back: true })).list).toEqual({ step: "refundable" })
      expect(planMoney(facts({ owner, given_back: true, refunded_in_full: true })).list).toMatchObject({ step: "close_refunded" })
    }
  })

  it("while an order is being placed nothing is refunded, and unpaid money is nobody's", () => {
    expect(planMoney(facts({ owner: unsure })).list).toMatchObject({ step: "wait", note: expect.stringContaining("order_1") })
    expect(planMoney(facts({ owner: unsure, refunded_in_full: true })).list).toMatchObject({ step: "wait" })
    expect(planMoney(facts({ owner: { owner: "not_paid" } })).list).toMatchObject({ step: "none" })
  })
})

describe("planMoney: Medusa's own refund (the order page's Refund), one decision with the rest", () => {
  it("the order's own money may be refunded there, also after a partial refund", () => {
    for (const given_back of [false, true]) {
      expect(planMoney(facts({ owner: mine, given_back })).medusa_refund).toEqual({ step: "allow" })
    }
  })

  it("the order's money its half-made order never booked is refused there until the recovery finishes the order", () => {
    const unbooked: Owner = { ...mine, recorded: false, medusa_holds: false }
    expect(planMoney(facts({ owner: unbooked })).medusa_refund).toEqual({ step: "refuse", why: expect.stringMatching(/being finished; nothing was refunded, try again/) })
    expect(planMoney(facts({ owner: { ...mine, recorded: false } })).medusa_refund).toEqual({ step: "allow" })
  })

  it("money extra to the order is refused there (Medusa would book it against the order's own money) and sent to Settings → PayLater", () => {
    for (const held_by of ["paylater", "other_method", "none_of_this_attempt"] as const) {
      const step = planMoney(facts({ owner: { owner: "extra", order_id: "order_1", held_by } })).medusa_refund
      expect(step).toEqual({ step: "refuse", why: expect.stringMatching(/^Order order_1 .*paid twice.*order's own money\. Nothing was refunded: refund it from Settings → PayLater/) })
    }
  })

  it("money no order holds, an order still being recorded and unpaid money are refused, each saying why", () => {
    expect(planMoney(facts({ owner: noOrder })).medusa_refund).toEqual({ step: "refuse", why: expect.stringContaining("Settings → PayLater") })
    expect(planMoney(facts({ owner: unsure })).medusa_refund).toEqual({ step: "refuse", why: expect.stringMatching(/order_1 .*try again in a few minutes/) })
    expect(planMoney(facts({ owner: { owner: "not_paid" } })).medusa_refund).toEqual({ step: "refuse", why: expect.stringMatching(/nothing to refund/) })
  })
})

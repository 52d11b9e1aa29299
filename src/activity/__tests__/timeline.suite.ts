import type { PayLaterEventRecord } from "../../modules/paylater-ledger/types"
import type { LedgerRow } from "../order-attempts"
import { ledgerRow as openRow, T0, t } from "./ledger-row"
import { buildOrderActivity, paidAtOf, type ActivityFacts, type ActivityPayment, type ActivitySession } from "../timeline"

/** Paid unless told otherwise: most of these cards describe a paid order. */
const ledgerRow = (id: string, over: Partial<LedgerRow> = {}): LedgerRow => openRow(id, { state: "paid", ...over })

function session(over: Partial<ActivitySession> = {}): ActivitySession {
  const id = over.id ?? "payses_1"
  return {
    id,
    provider_id: "pp_paylater_paylater",
    status: "authorized",
    created_at: t(0),
    amount: "360.00",
    currency_code: "qar",
    payment_collection_id: "pay_col_1",
    attempt: ledgerRow(id, { last_status_code: 2, last_status_at: t(60), paylater_ref: "PL-42" }),
    ...over,
  }
}

function payment(over: Partial<ActivityPayment> = {}): ActivityPayment {
  return {
    id: "pay_1",
    session_id: "payses_1",
    amount: "360.00",
    currency_code: "qar",
    captured_at: t(62),
    canceled_at: null,
    captures: [{ id: "capt_1", created_at: t(62), amount: "360.00" }],
    refunds: [],
    ...over,
  }
}

function event(over: Partial<PayLaterEventRecord>): PayLaterEventRecord {
  return {
    id: "plevt_1",
    session_id: "payses_1",
    payment_collection_id: "pay_col_1",
    paylater_order_id: "payses_1",
    kind: "webhook_verified",
    status: "success",
    detail: null,
    occurred_at: t(60),
    last_occurred_at: null,
    repeat_count: 0,
    dedupe_key: null,
    ...over,
  }
}

const facts = (over: Partial<ActivityFacts> = {}): ActivityFacts => ({
  order_id: "order_1",
  sessions: [session()],
  payments: [payment()],
  events: [],
  ledger: [],
  ...over,
})

describe("buildOrderActivity", () => {
  it("orders the history from Medusa's records and the log, oldest first", () => {
    const activity = buildOrderActivity(
      facts({
        events: [
          event({ id: "e2", kind: "webhook_verified", status: "success", occurred_at: t(66), repeat_count: 2, last_occurred_at: t(70) }),
          event({ id: "e1", kind: "shopper_returned", status: "success", occurred_at: t(61), detail: { url: "success" } }),
        ],
        payments: [payment({ refunds: [{ id: "ref_1", created_at: t(900), amount: "100.50", note: null }] })],
      }),
      new Date(T0 + 1000_000)
    )
    expect(activity.history.map((e) => [e.kind, e.at])).toEqual([
      ["link_created", t(0)],
      ["shopper_returned", t(61)],
      ["captured", t(62)],
      ["webhook_verified", t(66)],
      ["refunded", t(900)],
    ])
    expect(activity.history[0]).toMatchObject({ title: "Payment link created", detail: "360.00 QAR, PayLater order payses_1" })
    expect(activity.history[3]).toMatchObject({ repeat_count: 2, last_at: t(70) })
    expect(activity.history[4]).toMatchObject({ title: "Refunded 100.50 QAR", tone: "blue" })
  })

  it("summarises the attempt the ledger records as holding the order's money, not the newest paid session (paid twice)", () => {
    const row = ledgerRow
    const owner = session({ id: "payses_owner", created_at: t(0), attempt: row("payses_owner", { order_id: "order_1", payment_id: "pay_owner" }) })
    const extra = session({ id: "payses_extra", created_at: t(300), attempt: row("payses_extra", { paylater_ref: "PL-EXTRA" }) })
    const activity = buildOrderActivity(
      facts({
        sessions: [owner, extra],
        payments: [payment({ id: "pay_owner", session_id: "payses_owner" }), payment({ id: "pay_extra", session_id: "payses_extra" })],
        ledger: [
          row("payses_extra", { created_at: t(300), paylater_ref: "PL-EXTRA" }),
          row("payses_owner", { order_id: "order_1", payment_id: "pay_owner", paylater_ref: "PL-OWNER" }),
        ],
      }),
      new Date(T0 + 5 * 60_000)
    )
    expect(activity.paylater).toMatchObject({ session_id: "payses_owner", paylater_order_id: "payses_owner", reference: "PL-OWNER" })
    expect(activity.attempts.map((a) => [a.paylater_order_id, a.outcome])).toEqual([
      ["payses_owner", "holds_order_money"],
      ["payses_extra", "paid_elsewhere"],
    ])
  })

  it("summarises the paid session: reference, method, state, refund window from the earliest proof of payment", () => {
    const activity = buildOrderActivity(
      facts({ events: [event({ kind: "shopper_returned", status: "success", occurred_at: t(61) })] }),
      new Date(T0 + 5 * 60_000)
    )
    expect(activity.paylater).toMatchObject({
      session_id: "payses_1",
      reference: "PL-42",
      method: "payment_link",
      state: "paid",
      amount: "360.00",
      captured_amount: "360.00",
      refunded_amount: "0.00",
      expires_at: t(3600),
    })
    expect(activity.paylater!.refund_window).toEqual({
      state: "not_yet_open",
      paid_at: t(61),
      opens_at: t(61 + 600),
      closes_at: new Date(T0 + 61_000 + 29 * 86_400_000).toISOString(),
      refundable_amount: "360.00",
    })
  })

  it("tells partial and full refunds apart", () => {
    const partial = buildOrderActivity(facts({ payments: [payment({ refunds: [{ id: "r", created_at: t(700), amount: "60.00", note: null }] })] }), new Date(T0 + 800_000))
    expect(partial.paylater).toMatchObject({ state: "partially_refunded", refunded_amount: "60.00" })
    expect(partial.paylater!.refund_window).toMatchObject({ state: "open", refundable_amount: "300.00" })
    const full = buildOrderActivity(facts({ payments: [payment({ refunds: [{ id: "r", created_at: t(700), amount: "360.00", note: "customer" }] })] }), new Date(T0 + 800_000))
    expect(full.paylater).toMatchObject({ state: "refunded" })
    expect(full.paylater!.refund_window!.state).toBe("fully_refunded")
  })

  it("shows a Request to Pay with the masked number and an expiry entry once it ended unpaid", () => {
    const rtp = session({
      provider_id: "pp_paylater-rtp_paylater",
      status: "pending",
      // The number and the expiry are the ledger's, written when PayLater accepted the request.
      attempt: ledgerRow("payses_1", { state: "open", expires_at: t(900), detail: { mobile_number_masked: "974*****021" } }),
    })
    const activity = buildOrderActivity(facts({ sessions: [rtp], payments: [] }), new Date(T0 + 3600_000))
    expect(activity.paylater).toMatchObject({ method: "request_to_pay", state: "expired", failure_reason: "expired", mobile_number_masked: "974*****021", refund_window: null })
    expect(activity.history.map((e) => e.kind)).toEqual(["request_sent", "expired"])
    expect(activity.history[0].detail).toBe("360.00 QAR, to 974*****021, PayLater order payses_1")
  })

  it("describes the paid session even when a newer one exists, and keeps a replaced attempt's log", () => {
    const older = session()
    const newer = session({ id: "payses_2", created_at: t(5000), status: "pending", attempt: ledgerRow("payses_2", { state: "open" }) })
    const activity = buildOrderActivity(
      facts({ sessions: [newer, older], events: [event({ session_id: "payses_0", kind: "shopper_returned", status: "declined", occurred_at: t(-50) })] }),
      new Date(T0 + 6000_000)
    )
    expect(activity.paylater!.session_id).toBe("payses_1")
    expect(activity.history[0]).toMatchObject({ session_id: "payses_0", title: "Shopper redirected back: declined" })
  })

  it("describes a webhook-placed order by its paid attempt, not the declined request the shopper sent afterwards", () => {
    // The order's money: the first request, paid. Then the starter still showed the review step, the
    // shopper sent a new request and declined it; that session is newer and Medusa marks it errored.
    const paid = session({ id: "payses_paid", provider_id: "pp_paylater-rtp_paylater", attempt: ledgerRow("payses_paid", { kind: "request_to_pay", order_id: "order_1", payment_id: "pay_1", last_status_code: 2, last_status_at: t(60), detail: { mobile_number_masked: "974*****021" } }) })
    const declined = session({ id: "payses_late", provider_id: "pp_paylater-rtp_paylater", created_at: t(600), status: "error", attempt: ledgerRow("payses_late", { kind: "request_to_pay", state: "declined", last_status_code: 3, last_status_at: t(700) }) })
    const activity = buildOrderActivity(
      facts({ sessions: [declined, paid], payments: [payment({ session_id: "payses_paid" })], ledger: [declined.attempt!, paid.attempt!] }),
      new Date(T0 + 900_000)
    )
    expect(activity.paylater).toMatchObject({
      session_id: "payses_paid",
      state: "paid",
      paylater_status: "success",
      paylater_checked_at: t(60),
      failure_reason: null,
      mobile_number_masked: "974*****021",
    })
    expect(activity.attempts.map((a) => [a.paylater_order_id, a.outcome])).toEqual([
      ["payses_paid", "holds_order_money"],
      ["payses_late", "declined"],
    ])
  })

  it("takes a declined attempt's status and failure from the ledger row", () => {
    const rtp = session({ provider_id: "pp_paylater-rtp_paylater", status: "error", attempt: ledgerRow("payses_1", { kind: "request_to_pay", state: "declined", last_status_code: 3, last_status_at: t(120) }) })
    const activity = buildOrderActivity(facts({ sessions: [rtp], payments: [] }), new Date(T0 + 600_000))
    expect(activity.paylater).toMatchObject({ state: "declined", paylater_status: "failed", paylater_checked_at: t(120), failure_reason: "declined" })
  })

  it("has no summary for an order PayLater had nothing to do with", () => {
    expect(buildOrderActivity(facts({ sessions: [], payments: [] }), new Date(T0))).toEqual({
      order_id: "order_1",
      paylater: null,
      history: [],
      attempts: [],
    })
  })
})

describe("paidAtOf", () => {
  it("takes the earliest proof of payment for the session, ignoring others' and non-success events", () => {
    const events = [
      { session_id: "payses_1", status: "pending", occurred_at: t(10) },
      { session_id: "payses_2", status: "success", occurred_at: t(20) },
      { session_id: "payses_1", status: "success", occurred_at: t(55) },
    ]
    expect(paidAtOf(payment(), events, "payses_1")!.toISOString()).toBe(t(55))
    expect(paidAtOf(payment(), [], "payses_1")!.toISOString()).toBe(t(62))
    expect(paidAtOf(undefined, [], "payses_1")).toBeNull()
  })
})

import { orderAttempts, type LedgerRow } from "../order-attempts"
import { ledgerRow, T0, t } from "./ledger-row"

const row = (over: Partial<LedgerRow> & Pick<LedgerRow, "paylater_order_id">): LedgerRow => ledgerRow(over.paylater_order_id, over)

describe("orderAttempts", () => {
  it("lists the attempt holding the order's money first, then the others newest first, each with its outcome", () => {
    const rows = [
      row({ paylater_order_id: "payses_a", created_at: t(0), state: "declined" }),
      row({ paylater_order_id: "payses_b", created_at: t(100), state: "paid", order_id: "order_1", payment_id: "pay_1", paylater_ref: "PL-7" }),
      row({ paylater_order_id: "payses_c", created_at: t(200), state: "paid" }),
      row({ paylater_order_id: "payses_d", created_at: t(300), state: "open", expires_at: t(900) }),
      row({ paylater_order_id: "payses_e", created_at: t(50), state: "never_started" }),
    ]
    const list = orderAttempts(rows, "order_1", new Date(T0 + 400_000))
    expect(list.map((a) => [a.paylater_order_id, a.outcome])).toEqual([
      ["payses_b", "holds_order_money"],
      ["payses_d", "waiting"],
      ["payses_c", "paid_elsewhere"],
      ["payses_e", "not_started"],
      ["payses_a", "declined"],
    ])
    expect(list[0]).toMatchObject({ amount: "360.00", reference: "PL-7", order_id: "order_1", created_at: t(100) })
  })

  it("does not count a paid row as this order's money without its order and payment recorded, nor another order's", () => {
    const rows = [
      row({ paylater_order_id: "payses_own", created_at: t(0), state: "paid", order_id: "order_1", payment_id: null }),
      row({ paylater_order_id: "payses_other", created_at: t(10), state: "paid", order_id: "order_2", payment_id: "pay_2" }),
    ]
    expect(orderAttempts(rows, "order_1", new Date(T0)).map((a) => a.outcome)).toEqual(["paid_elsewhere", "paid_elsewhere"])
    expect(orderAttempts(rows, "order_2", new Date(T0)).map((a) => [a.paylater_order_id, a.outcome])).toEqual([
      ["payses_other", "holds_order_money"],
      ["payses_own", "paid_elsewhere"],
    ])
  })

  it("shows an open attempt past its expiry as expired, as the screens do, and keeps what replaced it", () => {
    const replaced = row({ paylater_order_id: "payses_a", state: "open", expires_at: t(600), superseded_by: "payses_a-2" })
    const [shown] = orderAttempts([replaced], "order_1", new Date(T0 + 3600_000))
    expect(shown).toMatchObject({ outcome: "expired", superseded_by: "payses_a-2" })
    expect(orderAttempts([replaced], "order_1", new Date(T0 + 60_000))[0].outcome).toBe("waiting")
  })

  it("gives attempts created in the same instant one order, whatever order the rows came in", () => {
    const rows = [row({ paylater_order_id: "payses_a", created_at: t(5) }), row({ paylater_order_id: "payses_a-2", created_at: t(5) })]
    const ids = (list: LedgerRow[]) => orderAttempts(list, "order_1", new Date(T0)).map((a) => a.paylater_order_id)
    expect(ids(rows)).toEqual(ids([...rows].reverse()))
  })
})

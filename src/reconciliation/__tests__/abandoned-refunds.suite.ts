import { listAbandonedRefunds, type AbandonedRefundLedger } from "../abandoned-refunds"

/**
 * The crash point `refund:after-sent` (src/faults/crash-point.ts) leaves the refund guard's attempt
 * "pending" and Medusa's refund record in place. The fault campaign (two-instance smoke, seed 9)
 * found one that nobody refunded again: never listed, so Medusa showed 50.00 QAR refunded that
 * PayLater never paid (checker: refunds_sound, payment pay_01M8CJJZFXC6KRFRB298ZR5C73).
 */
const NOW = new Date("2026-11-26T19:00:00Z")
const STALE_AFTER_MS = 5 * 60_000

function ledgerWith(attempts: Array<{ paylater_order_id: string; sent_at: string }>) {
  const expired: string[] = []
  const ledger: AbandonedRefundLedger = {
    listPayLaterRefundAttempts: async (filters) => (filters.status === "pending" ? attempts : []),
    expireStaleRefundsOf: async (id) => {
      expired.push(id)
    },
  }
  return { ledger, expired }
}

describe("abandoned refunds (the recovery job's sweep)", () => {
  it("lists a pending refund whose process died, once it can no longer be in flight", async () => {
    const { ledger, expired } = ledgerWith([
      { paylater_order_id: "payses_dead", sent_at: new Date(NOW.getTime() - STALE_AFTER_MS - 1).toISOString() },
      { paylater_order_id: "payses_dead", sent_at: new Date(NOW.getTime() - STALE_AFTER_MS - 2).toISOString() },
      { paylater_order_id: "payses_in_flight", sent_at: new Date(NOW.getTime() - 1000).toISOString() },
    ])
    expect(await listAbandonedRefunds(ledger, STALE_AFTER_MS, NOW)).toEqual(["payses_dead"])
    expect(expired).toEqual(["payses_dead"])
  })

  it("leaves a refund still in flight alone", async () => {
    const { ledger, expired } = ledgerWith([{ paylater_order_id: "payses_in_flight", sent_at: new Date(NOW.getTime() - STALE_AFTER_MS).toISOString() }])
    expect(await listAbandonedRefunds(ledger, STALE_AFTER_MS, NOW)).toEqual([])
    expect(expired).toEqual([])
  })
})

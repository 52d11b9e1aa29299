import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYLATER_LEDGER_MODULE } from "../../modules/paylater-ledger"
import { ABANDONED_AFTER_MS } from "../../money-plan/refund-plan"
import { runPaidWithoutOrderRefunds } from "../auto-refund"

/**
 * The crash point `auto-refund:after-sent` (src/faults/crash-point.ts): the automatic refund was
 * accepted by PayLater and recorded by the refund guard (its attempt "succeeded"), then the process
 * died before the item's plan left "refunding". Once the plan looks abandoned, the item must be
 * closed as refunded from the guard's record, not turned into "outcome unknown" for a person to
 * chase in PayLater's portal.
 */
const NOW = new Date("2026-11-26T18:00:00Z")
const startedAt = new Date(NOW.getTime() - ABANDONED_AFTER_MS - 60_000).toISOString()

function setup(refundedByGuard: string) {
  const item = {
    id: "platt_1",
    kind: "paid_without_order",
    status: "open",
    summary: "Paid without an order. It will be refunded in full automatically.",
    amount: "360.00",
    paylater_order_id: "payses_1-2",
    session_id: "payses_1",
    payment_id: "pay_1",
    cart_id: "cart_1",
    detail: {},
    refund_state: "refunding",
    refund_tries: 0,
    refund_next_at: startedAt,
    refund_error: null,
  }
  const ledger = {
    listPayLaterAttentions: jest.fn(async () => [item]),
    updatePayLaterAttentions: jest.fn(async (update: Record<string, unknown>) => Object.assign(item, update)),
    resolveAttention: jest.fn(async () => undefined),
    refundedAmount: jest.fn(async () => refundedByGuard),
  }
  const locking = {
    acquire: jest.fn(async () => undefined),
    release: jest.fn(async () => undefined),
    execute: jest.fn(async (_key: string, work: () => Promise<unknown>) => work()),
  }
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() }
  const container = {
    resolve: (key: string) => {
      if (key === PAYLATER_LEDGER_MODULE) return ledger
      if (key === Modules.LOCKING) return locking
      if (key === ContainerRegistrationKeys.LOGGER) return logger
      throw new Error(`unexpected resolve(${key})`)
    },
  } as unknown as MedusaContainer
  return { container, ledger, item }
}

describe("automatic refund after a crash between PayLater's acceptance and the plan's update", () => {
  it("closes the item as refunded when the refund guard recorded the whole refund as accepted", async () => {
    const { container, ledger, item } = setup("360.00")
    const results = await runPaidWithoutOrderRefunds(container, { now: NOW })
    expect(results).toEqual([{ id: "platt_1", outcome: "refunded" }])
    expect(ledger.resolveAttention).toHaveBeenCalledWith("platt_1", expect.objectContaining({ resolution: "refunded" }))
    expect(item.refund_state).toBe("refunded")
  })

  it("still leaves it to a person (outcome unknown) when the guard has no accepted refund", async () => {
    const { container, ledger, item } = setup("0.00")
    const results = await runPaidWithoutOrderRefunds(container, { now: NOW })
    expect(results).toEqual([{ id: "platt_1", outcome: "outcome_unknown" }])
    expect(ledger.resolveAttention).not.toHaveBeenCalled()
    expect(item.refund_state).toBe("outcome_unknown")
  })
})

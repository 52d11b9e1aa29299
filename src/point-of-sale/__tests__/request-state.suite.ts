import { decideOrderRequest } from "../request-state"
import type { OrderRequestContext } from "../order-context"

const NOW = new Date("2030-01-01T10:00:00.000Z")

function context(overrides: Partial<OrderRequestContext> = {}, latest: Partial<NonNullable<OrderRequestContext["latest"]>> | null = null): OrderRequestContext {
  return {
    order_id: "order_1",
    order_status: "pending",
    is_draft_order: false,
    currency_code: "qar",
    outstanding_amount: "360.00",
    rtp_provider_ids: ["pp_paylater-rtp_paylater"],
    checkout_money_unrecorded: null,
    latest: latest
      ? {
          session_id: "payses_1",
          provider_id: "pp_paylater-rtp_paylater",
          session_status: "pending",
          payment_collection_id: "pay_col_1",
          cart_id: null,
          order_id: "order_1",
          for_order: true,
          attempt: null,
          ...latest,
        }
      : null,
    ...overrides,
  }
}

describe("decideOrderRequest", () => {
  it("never asks the shopper to pay again while PayLater holds checkout money the order's records do not show yet", () => {
    const state = decideOrderRequest(context({ checkout_money_unrecorded: "360.00" }), NOW)
    expect(state).toMatchObject({ can_send: false })
    expect(state.blocked_reason).toMatch(/already holds 360\.00 QAR/)
  })

  it("may send for an order with an outstanding amount and no request", () => {
    expect(decideOrderRequest(context(), NOW)).toMatchObject({ can_send: true, blocked_reason: null, request: null })
  })

  it("never sends while a request is live", () => {
    const attempt = {
      state: "open",
      expires_at: "2030-01-01T10:10:00.000Z",
      amount: "360",
      detail: { mobile_number_masked: "974*****021" },
    } as unknown as NonNullable<OrderRequestContext["latest"]>["attempt"]
    const state = decideOrderRequest(context({}, { attempt }), NOW)
    expect(state.can_send).toBe(false)
    expect(state.blocked_reason).toMatch(/waiting/)
    expect(state.request).toMatchObject({ status: "waiting", seconds_left: 600, mobile_number_masked: "974*****021", amount: "360.00" })
  })

  it("may send a new one after a decline or expiry", () => {
    for (const reason of ["declined", "expired"] as const) {
      const state = decideOrderRequest(
        context({}, { session_status: "error", attempt: { state: reason, expires_at: null } as NonNullable<OrderRequestContext["latest"]>["attempt"] }),
        NOW
      )
      expect(state.can_send).toBe(true)
    }
  })

  it.each([
    [{ outstanding_amount: "0.00" }, /Nothing is outstanding/],
    [{ is_draft_order: true }, /draft/],
    [{ order_status: "canceled" }, /canceled/],
    [{ currency_code: "eur" }, /QAR/],
    [{ rtp_provider_ids: [] }, /not enabled/],
  ] as const)("refuses %p", (overrides, reason) => {
    const state = decideOrderRequest(context(overrides as Partial<OrderRequestContext>), NOW)
    expect(state.can_send).toBe(false)
    expect(state.blocked_reason).toMatch(reason)
  })
})

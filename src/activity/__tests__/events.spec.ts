import { checkEvent, describeEvent, returnEvent, webhookEvent } from "../events"

const context = { session_id: "payses_1", attempt: { paylater_order_id: "payses_1-2" }, order_id: null }

describe("returnEvent", () => {
  it("records the decision, keyed so that reloads of the same result count as repeats", () => {
    const paid = returnEvent({ ...context, order_id: "order_1" }, { kind: "success", order_id: "order_1" }, "success")
    expect(paid).toEqual({
      session_id: "payses_1",
      paylater_order_id: "payses_1-2",
      kind: "shopper_returned",
      status: "success",
      detail: { url: "success", order_id: "order_1" },
      dedupe_key: "return:payses_1-2:success",
    })
    const declined = returnEvent(context, { kind: "failure", reason: "declined" }, "fail")
    expect(declined).toMatchObject({ status: "declined", detail: { url: "fail" }, dedupe_key: "return:payses_1-2:declined" })
    expect(returnEvent(context, { kind: "pending" }, undefined).detail).toEqual({ url: null })
  })
})

describe("webhookEvent", () => {
  const verified = { session_id: "payses_1", action: "authorized" }

  it("keeps only the order, status and PayLater's timestamp: never the signature or comments", () => {
    const body = { merchantId: "m", orderId: "payses_1", status: "success", timestamp: 1767225600000, comments: "call 97451118021", txHash: "x", signature: "y" }
    const event = webhookEvent(body, verified)!
    expect(event).toEqual({
      session_id: "payses_1",
      paylater_order_id: "payses_1",
      kind: "webhook_verified",
      status: "success",
      detail: { action: "authorized", paylater_timestamp: "1767225600000" },
      dedupe_key: "webhook:payses_1:success",
    })
    expect(JSON.stringify(event)).not.toMatch(/97451118021|txHash|signature|"x"|"y"/)
  })

  it("gives one key per order and status, so a late failed is its own entry", () => {
    expect(webhookEvent({ orderId: "payses_1", status: "failed" }, verified)!.dedupe_key).toBe("webhook:payses_1:failed")
  })

  it("records nothing for a notification about an order this store does not know", () => {
    expect(webhookEvent({ orderId: "payses_x", status: "success" }, { session_id: null, action: "not_supported" })).toBeNull()
  })
})

describe("checkEvent", () => {
  it("records every staff check, and folds automatic ones per answer", () => {
    const base = { session_id: "payses_1", paylater_order_id: "payses_1", paylater_status: "pending", state: "waiting" }
    expect(checkEvent({ ...base, source: "admin", actor_id: "user_1" })).toMatchObject({
      kind: "status_checked",
      status: "pending",
      detail: { source: "admin", state: "waiting", processed: false, mismatch: false, actor_id: "user_1" },
      dedupe_key: null,
    })
    expect(checkEvent({ ...base, source: "storefront" }).dedupe_key).toBe("check:payses_1:storefront:pending:waiting")
    expect(checkEvent({ ...base, source: "reconciliation", paylater_status: "success", state: "paid" }).dedupe_key).toBe(
      "check:payses_1:reconciliation:success:paid"
    )
  })
})

describe("describeEvent", () => {
  it.each([
    [{ kind: "shopper_returned", status: "success", detail: { url: "success" } }, "Shopper redirected back: paid", "green", "through PayLater's success URL"],
    [{ kind: "shopper_returned", status: "declined", detail: { url: "fail" } }, "Shopper redirected back: declined", "red", "through PayLater's failure URL"],
    [{ kind: "shopper_returned", status: "abandoned", detail: {} }, "Shopper left PayLater's page without paying", "orange", null],
    [{ kind: "webhook_verified", status: "success", detail: { paylater_timestamp: "17" } }, "Webhook received and verified: success", "green", null],
    [{ kind: "webhook_verified", status: "failed", detail: null }, "Webhook received and verified: failed", "red", null],
    [{ kind: "status_checked", status: "success", detail: { source: "admin", processed: true } }, "Checked with PayLater by staff", "green", "PayLater says success; payment recorded by this check"],
    [{ kind: "status_checked", status: "failed", detail: { source: "admin", mismatch: true } }, "Checked with PayLater by staff", "red", "PayLater says failed; does not match the store's records"],
    [{ kind: "status_checked", status: "unreachable", detail: { source: "storefront" } }, "Status checked (waiting screen)", "red", "PayLater did not answer"],
    [{ kind: "status_checked", status: "success", detail: { source: "reconciliation" } }, "Reconciled with PayLater", "green", "PayLater says success"],
  ] as const)("%j reads as %s", (event, title, tone, detail) => {
    expect(describeEvent(event as never)).toEqual({ title, tone, detail })
  })
})

import { attemptFromSession, attemptFromTombstone, legacyTombstonesOf, LEGACY_TOMBSTONES_KEY } from "../legacy-attempts"

const session = (status: string, data: Record<string, unknown> = {}) => ({
  id: "payses_1",
  provider_id: "pp_paylater-rtp_paylater",
  status,
  data: { paylater_order_id: "payses_1-2", expires_at: "2026-05-01T12:00:00.000Z", ...data },
  amount: "360.00",
  currency_code: "qar",
  payment_collection_id: "pay_col_1",
})

describe("the upgrade's reading of the old records", () => {
  it.each([
    ["pending", {}, "open"],
    // Session data alone never ends an attempt: PayLater is asked again.
    ["pending", { paylater_status_code: 3 }, "open"],
    ["pending", { paylater_status_code: 2 }, "open"],
    ["authorized", {}, "paid"],
    ["captured", {}, "paid"],
    ["error", { paylater_failure_reason: "declined" }, "declined"],
    ["error", { paylater_failure_reason: "expired" }, "expired"],
    ["canceled", {}, "expired"],
  ])("a %s session with %j is %s", (status, data, state) => {
    expect(attemptFromSession(session(status, data))).toMatchObject({
      paylater_order_id: "payses_1-2",
      kind: "request_to_pay",
      state,
      expires_at: new Date("2026-05-01T12:00:00.000Z"),
      amount: "360.00",
    })
  })

  it("skips a session that never reached PayLater", () => {
    expect(attemptFromSession(session("pending", { paylater_order_id: undefined }))).toBeNull()
  })

  const tomb = (over: Record<string, unknown> = {}) => ({
    session_id: "payses_0",
    provider_id: "pp_paylater_paylater",
    paylater_order_id: "payses_0",
    amount: "350.00",
    expires_at: "2026-05-01T12:00:00.000Z",
    created_at: null,
    deleted_at: "2026-05-01T11:00:00.000Z",
    ...over,
  })

  it("reads tombstones, ignoring malformed entries", () => {
    expect(legacyTombstonesOf({ [LEGACY_TOMBSTONES_KEY]: [tomb(), null, { session_id: 1 }, "x"] })).toHaveLength(1)
    expect(legacyTombstonesOf(null)).toEqual([])
    expect(legacyTombstonesOf({ [LEGACY_TOMBSTONES_KEY]: "nope" })).toEqual([])
  })

  it.each([
    [{}, { state: "open", session_gone_at: new Date("2026-05-01T11:00:00.000Z"), superseded_by: null }],
    [{ superseded_by: "payses_0-2" }, { state: "open", session_gone_at: null, superseded_by: "payses_0-2" }],
    [{ outcome: "paid", paylater_ref: "PL1" }, { state: "paid", paylater_ref: "PL1" }],
    [{ outcome: "failed" }, { state: "declined" }],
  ])("a tombstone %j becomes %j", (over, expected) => {
    expect(attemptFromTombstone("pay_col_1", "qar", tomb(over))).toMatchObject({ kind: "link", payment_collection_id: "pay_col_1", ...expected })
  })
})

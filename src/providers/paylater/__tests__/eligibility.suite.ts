import { MedusaError } from "@medusajs/framework/utils"
import { assertEligible, lookUpEligibility, lookUpWanted } from "../eligibility"
import { readCheckoutOptions } from "../checkout-options"
import { FakePayLater } from "./fake-api"
import { PayLaterError } from "../../../lib/paylater"

const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() } as unknown as Console
const shopper = (limit: string) => ({
  shopperId: "70001",
  email: "a@b.qa",
  mobileNumber: "97451118021",
  currentSpendingLimit: limit,
  allowedSpendingLimit: "10000.00",
})

function apiAnswering(answer: () => Promise<unknown>) {
  const api = new FakePayLater()
  const calls: unknown[] = []
  api.lookupShopper = ((input: unknown) => {
    calls.push(input)
    return answer()
  }) as never
  return { api, calls }
}

const input = (data: Record<string, unknown>, amount = "360.00") => ({ storefrontData: data, amount })
const contact = { mobile_number: "+974 5111 8021", email: " a@b.qa " }

beforeEach(() => jest.clearAllMocks())

describe("shopper look-up before a payment", () => {
  it("asks PayLater with the normalised number and trimmed email; enough room is eligible, the exact total too", async () => {
    const { api, calls } = apiAnswering(async () => shopper("360.00"))
    expect(await lookUpEligibility(api, input(contact), { timeoutMs: 1000, logger })).toEqual({ kind: "eligible" })
    expect(calls).toEqual([{ mobileNumber: "97451118021", email: "a@b.qa" }])
  })

  it("says no_account for 'Shopper not found' and limit_too_low one dirham short", async () => {
    expect(await lookUpEligibility(apiAnswering(async () => null).api, input(contact), { timeoutMs: 1000, logger })).toEqual({ kind: "no_account" })
    expect(await lookUpEligibility(apiAnswering(async () => shopper("359.99")).api, input(contact), { timeoutMs: 1000, logger })).toEqual({
      kind: "limit_too_low",
    })
  })

  it("uses a logged-in customer's email when the storefront sent none, and skips without any email or a valid number", async () => {
    const { api, calls } = apiAnswering(async () => shopper("10000.00"))
    await lookUpEligibility(api, { storefrontData: { mobile_number: "51118021" }, customerEmail: "c@d.qa", amount: "1.00" }, { timeoutMs: 1000, logger })
    expect(calls).toEqual([{ mobileNumber: "97451118021", email: "c@d.qa" }])
    expect((await lookUpEligibility(api, input({ mobile_number: "51118021" }), { timeoutMs: 1000, logger })).kind).toBe("unknown")
    expect((await lookUpEligibility(api, input({ mobile_number: "1234", email: "a@b.qa" }), { timeoutMs: 1000, logger })).kind).toBe("unknown")
    expect(calls).toHaveLength(1)
  })

  it("falls through (unknown) when the look-up fails or is too slow, logging the masked number only", async () => {
    const failing = apiAnswering(async () => {
      throw new PayLaterError("SERVER_ERROR", "PayLater answered 500")
    })
    expect(await lookUpEligibility(failing.api, input(contact), { timeoutMs: 1000, logger })).toEqual({ kind: "unknown", why: "look-up failed" })
    const slow = apiAnswering(() => new Promise((resolve) => setTimeout(() => resolve(null), 200)))
    expect(await lookUpEligibility(slow.api, input(contact), { timeoutMs: 20, logger })).toEqual({ kind: "unknown", why: "look-up too slow" })
    const lines = (logger.warn as jest.Mock).mock.calls.map((c) => c[0] as string)
    expect(lines).toEqual([
      "PayLater: shopper look-up for 974*****021 failed (SERVER_ERROR); going on without it",
      "PayLater: shopper look-up for 974*****021 took longer than 20 ms; going on without it",
    ])
  })

  it("throws one shopper message and one code for both refusals (no oracle), for refusals only", () => {
    const refused = (kind: "no_account" | "limit_too_low") => {
      try {
        assertEligible({ kind }, logger, "payses_1")
      } catch (e) {
        return e as MedusaError & { code?: string }
      }
      return null
    }
    expect(refused("no_account")).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED, code: "paylater_not_eligible" })
    expect(refused("limit_too_low")).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED, code: "paylater_not_eligible" })
    expect(refused("no_account")!.message).toBe(refused("limit_too_low")!.message)
    expect(() => assertEligible({ kind: "unknown", why: "x" }, logger, "payses_1")).not.toThrow()
    expect(() => assertEligible({ kind: "eligible" }, logger, "payses_1")).not.toThrow()
  })

  it("is wanted before Request to Pay by default, before links only with 'all', never with 'off'", () => {
    expect([lookUpWanted("request-to-pay", "request-to-pay"), lookUpWanted("request-to-pay", "link")]).toEqual([true, false])
    expect([lookUpWanted("all", "request-to-pay"), lookUpWanted("all", "link")]).toEqual([true, true])
    expect([lookUpWanted("off", "request-to-pay"), lookUpWanted("off", "link")]).toEqual([false, false])
  })
})

describe("checkout options", () => {
  it("defaults to 4 instalments 30 days apart and the look-up before Request to Pay within 3 s", () => {
    const problems: string[] = []
    expect(readCheckoutOptions({}, problems)).toEqual({
      plans: { counts: [4], intervalDays: 30 },
      eligibility: { mode: "request-to-pay", timeoutMs: 3000 },
    })
    expect(problems).toEqual([])
  })

  it("reads counts from a list or env text, and reports every wrong value", () => {
    const problems: string[] = []
    expect(readCheckoutOptions({ instalmentCounts: "6, 3", instalmentIntervalDays: "14", eligibilityCheck: "all" }, problems)).toEqual({
      plans: { counts: [3, 6], intervalDays: 14 },
      eligibility: { mode: "all", timeoutMs: 3000 },
    })
    readCheckoutOptions({ instalmentCounts: [1], instalmentIntervalDays: 0, eligibilityCheck: "yes", eligibilityTimeoutMs: 5 }, problems)
    expect(problems).toHaveLength(4)
  })
})

import { tallyLookupRefusal } from "../../api/store/paylater/lookup-tally"
import { hourStartOf, LOOKUP_TALLY, lookupRefusalOf, lookupRefusalsTotal } from "../lookup-tally"

describe("the store route's look-up refusal tally", () => {
  it("counts a refusal in the UTC hour it happened in, whatever the zone's offset", () => {
    expect(hourStartOf(new Date("2026-11-26T21:59:59.999Z")).toISOString()).toBe("2026-11-26T21:00:00.000Z")
    expect(hourStartOf(new Date("2026-11-26T22:00:00.000Z")).toISOString()).toBe("2026-11-26T22:00:00.000Z")
    // Epoch-based: a local offset of the machine running it changes nothing.
    expect(hourStartOf(new Date("2026-11-26T23:30:00+05:30")).toISOString()).toBe("2026-11-26T18:00:00.000Z")
  })

  it("keeps the hour, the method and the code only: nothing about the shopper", () => {
    const entry = lookupRefusalOf(true, "paylater_not_eligible", new Date("2026-11-26T10:42:17Z"))
    expect(entry).toEqual({ hour: new Date("2026-11-26T10:00:00Z"), kind: "request_to_pay", code: "paylater_not_eligible" })
    expect(Object.keys(entry).sort()).toEqual(["code", "hour", "kind"])
    expect(lookupRefusalOf(false, "paylater_not_eligible", new Date()).kind).toBe("link")
  })

  it("adds the tally to the attempts' refusals (PostgreSQL's int may arrive as text)", () => {
    expect(lookupRefusalsTotal(3, [{ n: "4" }])).toBe(7)
    expect(lookupRefusalsTotal(2, [{ n: 0 }])).toBe(2)
    expect(lookupRefusalsTotal(0, [])).toBe(0)
  })

  it("counts Requests to Pay refused for who the shopper is, not a look-up that failed", () => {
    expect(LOOKUP_TALLY).toContain("kind = 'request_to_pay'")
    expect(LOOKUP_TALLY).toContain("'paylater_not_eligible'")
    expect(LOOKUP_TALLY).not.toContain("paylater_lookup_unavailable")
  })
})

describe("the store route's tally write", () => {
  const scopeWith = (countLookupRefusal: jest.Mock) => {
    const logger = { warn: jest.fn() }
    const scope = { resolve: (key: string) => (key === "logger" ? logger : { countLookupRefusal }) }
    return { scope: scope as never, logger }
  }

  it("counts the refusal", async () => {
    const count = jest.fn().mockResolvedValue(undefined)
    await tallyLookupRefusal(scopeWith(count).scope, true, "paylater_not_eligible")
    expect(count).toHaveBeenCalledWith(expect.objectContaining({ kind: "request_to_pay", code: "paylater_not_eligible" }))
  })

  it("never throws into the shopper's answer: a failed write is logged", async () => {
    const { scope, logger } = scopeWith(jest.fn().mockRejectedValue(new Error("db down")))
    await expect(tallyLookupRefusal(scope, true, "paylater_not_eligible")).resolves.toBeUndefined()
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("db down"))
  })
})

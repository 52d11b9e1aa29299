import { dayOf, isDate, isTimeZone, periodOf, presetPeriod, previousPeriod, startOfDay } from "../period"

describe("a report's period", () => {
  it("starts a Doha day at 21:00 UTC the day before", () => {
    expect(startOfDay("2026-11-10", "Asia/Qatar").toISOString()).toBe("2026-11-09T21:00:00.000Z")
    expect(dayOf(new Date("2026-11-09T21:00:00Z"), "Asia/Qatar")).toBe("2026-11-10")
    expect(dayOf(new Date("2026-11-09T20:59:59Z"), "Asia/Qatar")).toBe("2026-11-09")
  })

  it("follows a zone with summer time (a 23-hour day)", () => {
    const p = periodOf("2026-03-29", "2026-03-29", "Europe/London")
    expect(p.from.toISOString()).toBe("2026-03-29T00:00:00.000Z")
    expect(p.to.toISOString()).toBe("2026-03-29T23:00:00.000Z")
  })

  it("has presets ending today, and a previous period of the same length just before", () => {
    const now = new Date("2026-11-26T22:00:00Z") // already the 27th in Doha
    const p = presetPeriod("7d", now, "Asia/Qatar")
    expect([p.from_date, p.to_date, p.days]).toEqual(["2026-11-21", "2026-11-27", 7])
    const before = previousPeriod(p)
    expect([before.from_date, before.to_date, before.to.getTime()]).toEqual(["2026-11-14", "2026-11-20", p.from.getTime()])
    expect(presetPeriod("today", now, "Asia/Qatar").days).toBe(1)
  })

  it("knows real dates and zones", () => {
    expect(isDate("2026-02-28")).toBe(true)
    expect(isDate("2026-02-30")).toBe(false)
    expect(isDate("2026-2-3")).toBe(false)
    expect(isTimeZone("Asia/Qatar")).toBe(true)
    expect(isTimeZone("Mars/Olympus")).toBe(false)
  })
})

describe("a CSV's local time", () => {
  it("is the zone's wall clock with its offset, on both sides of a summer-time change", () => {
    const { localTimestamp } = require("../period") as typeof import("../period")
    expect(localTimestamp(new Date("2026-11-10T20:30:00.900Z"), "Asia/Qatar")).toBe("2026-11-10T23:30:00+03:00")
    expect(localTimestamp(new Date("2026-03-29T00:59:59Z"), "Europe/London")).toBe("2026-03-29T00:59:59+00:00")
    expect(localTimestamp(new Date("2026-03-29T01:00:00Z"), "Europe/London")).toBe("2026-03-29T02:00:00+01:00")
    expect(localTimestamp(new Date("2026-11-10T12:00:00Z"), "America/St_Johns")).toBe("2026-11-10T08:30:00-03:30")
  })
})

describe("a UTC offset as text", () => {
  it("is sign, hours and minutes (what the CSV appends to the zone's wall clock from PostgreSQL)", () => {
    const { offsetText } = require("../period") as typeof import("../period")
    expect([180, 0, -210, 345, -600].map(offsetText)).toEqual(["+03:00", "+00:00", "-03:30", "+05:45", "-10:00"])
  })
})

import { parsePayLaterDateTime } from "../datetime"

describe("parsePayLaterDateTime (RTP expiry_date)", () => {
  it.each([
    ["2026-04-28T10:15:41.477013291", "2026-04-28T10:15:41.477Z"],
    ["2026-04-28T10:15:41.477999999", "2026-04-28T10:15:41.477Z"],
    ["2026-04-28T10:15:41.477", "2026-04-28T10:15:41.477Z"],
    ["2026-04-28T10:15:41.4", "2026-04-28T10:15:41.400Z"],
    ["2026-04-28T10:15:41", "2026-04-28T10:15:41.000Z"],
    ["2026-04-28T10:15", "2026-04-28T10:15:00.000Z"],
    ["2024-02-29T23:59:59.999999999", "2024-02-29T23:59:59.999Z"],
    ["2026-04-28T10:15:41.477Z", "2026-04-28T10:15:41.477Z"],
    ["2026-04-28T13:15:41.477+03:00", "2026-04-28T10:15:41.477Z"],
    ["2026-04-28T13:15:41+0300", "2026-04-28T10:15:41.000Z"],
    ["2026-04-28T05:15:41-05:00", "2026-04-28T10:15:41.000Z"],
  ])("%s → %s (zone-less is UTC)", (text, iso) => {
    expect(parsePayLaterDateTime(text)?.toISOString()).toBe(iso)
  })

  it("never hands the zone-less text to Date.parse (which would read it as local time)", () => {
    const parse = jest.spyOn(Date, "parse")
    try {
      expect(parsePayLaterDateTime("2026-04-28T10:15:41.477013291")?.getTime()).toBe(Date.UTC(2026, 3, 28, 10, 15, 41, 477))
      expect(parse).not.toHaveBeenCalled()
    } finally {
      parse.mockRestore()
    }
  })

  it.each([
    "",
    "tomorrow",
    "2026-04-28",
    "2026-04-28 10:15:41",
    "2026-04-28T10:15:41.",
    "2026-04-28T10:15:41.4770132911",
    "2026-13-01T00:00:00",
    "2026-00-01T00:00:00",
    "2026-02-30T00:00:00",
    "2025-02-29T00:00:00",
    "2026-04-31T00:00:00",
    "2026-04-28T24:00:00",
    "2026-04-28T10:60:00",
    "2026-04-28T10:15:60",
    "0026-04-28T10:15:41",
    "2026-04-28T10:15:41+25:00",
    "2026-04-28T10:15:41.477013291 ",
    "１２３４-04-28T10:15:41",
  ])("refuses %j", (text) => {
    expect(parsePayLaterDateTime(text)).toBeNull()
  })

  it.each([[null], [undefined], [1714299341477], [{}]])("refuses non-text %j", (value) => {
    expect(parsePayLaterDateTime(value)).toBeNull()
  })
})

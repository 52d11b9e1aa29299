/**
 * PayLater writes date-times such as "2026-04-28T10:15:41.477013291": no zone and up to nine
 * fractional digits, which Date.parse reads inconsistently (local time, or not at all). This reader
 * takes the text apart itself, treats a zone-less value as UTC (project decision), honours an explicit
 * "Z" or offset if one ever appears, and truncates the fraction to milliseconds.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === "Z") {
    return 0
  }
  const sign = zone.startsWith("-") ? -1 : 1
  const digits = zone.slice(1).replace(":", "")
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)))
}

/** The instant, or null when the text is not such a date-time or names an impossible date. */
export function parsePayLaterDateTime(text: unknown): Date | null {
  if (typeof text !== "string" || text.length > 40) {
    return null
  }
  const m = DATE_TIME.exec(text)
  if (!m) {
    return null
  }
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number)
  const second = m[6] === undefined ? 0 : Number(m[6])
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"))
  const zoneMinutes = offsetMinutes(m[8])
  if (year < 1000 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || Math.abs(zoneMinutes) > 18 * 60) {
    return null
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis)
  const check = new Date(local)
  // Date.UTC rolls 31 April over to 1 May; a round trip catches impossible days.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) {
    return null
  }
  return new Date(local - zoneMinutes * 60_000)
}

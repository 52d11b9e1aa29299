/**
 * A report's period: whole days in the store's time zone (Asia/Qatar unless told), turned into the
 * UTC instants the ledger is queried with. Pure (Intl only): the same days for the SQL and for the
 * definitions' own computation.
 */

export const DEFAULT_TIME_ZONE = "Asia/Qatar"
/** The longest period a report covers: a year and a day (a leap year's custom range fits). */
export const MAX_PERIOD_DAYS = 366
export const PRESETS = ["today", "7d", "30d", "90d"] as const
export type Preset = (typeof PRESETS)[number]

export interface Period {
  /** First day, YYYY-MM-DD in `time_zone`. */
  from_date: string
  /** Last day, inclusive. */
  to_date: string
  time_zone: string
  /** Start of the first day (inclusive) and of the day after the last (exclusive), as instants. */
  from: Date
  to: Date
  days: number
}

const DAY_MS = 86_400_000
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** True when Intl knows the zone (an IANA name such as Asia/Qatar, or UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
    formatters.set(zone, f)
  }
  return f
}

function partsOf(at: Date, zone: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const p of formatterOf(zone).formatToParts(at)) if (p.type !== "literal") out[p.type] = Number(p.value)
  return out
}

/** The zone's calendar day of an instant, YYYY-MM-DD. */
export function dayOf(at: Date, zone: string): string {
  const p = partsOf(at, zone)
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(at: Date, zone: string): number {
  const p = partsOf(at, zone)
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return asUtc - Math.floor(at.getTime() / 1000) * 1000
}

/** The instant a zone's day begins (its local midnight; the first instant of the day on a DST gap). */
export function startOfDay(date: string, zone: string): Date {
  const [y, m, d] = date.split("-").map(Number)
  const guess = Date.UTC(y, m - 1, d)
  // Twice: the offset at the guess may differ from the offset at the true midnight (a DST change).
  let at = guess - offsetAt(new Date(guess), zone)
  at = guess - offsetAt(new Date(at), zone)
  return new Date(at)
}

/** A calendar day plus n days (no zone: calendar arithmetic). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number)
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10)
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  const [a, b] = [from, to].map((s) => {
    const [y, m, d] = s.split("-").map(Number)
    return Date.UTC(y, m - 1, d)
  })
  return Math.round((b - a) / DAY_MS) + 1
}

/** A real calendar date (2026-02-30 is not). */
export function isDate(value: string): boolean {
  if (!DATE.test(value)) return false
  const [y, m, d] = value.split("-").map(Number)
  const at = new Date(Date.UTC(y, m - 1, d))
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d
}

export function periodOf(fromDate: string, toDate: string, zone: string): Period {
  return {
    from_date: fromDate,
    to_date: toDate,
    time_zone: zone,
    from: startOfDay(fromDate, zone),
    to: startOfDay(addDays(toDate, 1), zone),
    days: daysBetween(fromDate, toDate),
  }
}

/** A preset ending today (in the zone): today, or the last 7/30/90 days including today. */
export function presetPeriod(preset: Preset, now: Date, zone: string): Period {
  const today = dayOf(now, zone)
  const days = preset === "today" ? 1 : Number(preset.slice(0, -1))
  return periodOf(addDays(today, 1 - days), today, zone)
}

/** The same number of days just before: what "change against the previous period" compares with. */
export function previousPeriod(period: Period): Period {
  return periodOf(addDays(period.from_date, -period.days), addDays(period.from_date, -1), period.time_zone)
}

/** Every day of the period, in order (the daily chart's x axis). */
export function daysOf(period: Period): string[] {
  return Array.from({ length: period.days }, (_, i) => addDays(period.from_date, i))
}

// Zones change offset on a quarter hour: one Intl call per zone and quarter hour, not one per CSV row.
const offsets = new Map<string, number>()
function cachedOffset(at: Date, zone: string): number {
  const key = `${zone}|${Math.floor(at.getTime() / 900_000)}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    if (offsets.size > 10_000) offsets.clear()
    offset = offsetAt(at, zone)
    offsets.set(key, offset)
  }
  return offset
}

/** An instant as the zone's wall-clock time with its offset: 2026-11-10T12:03:00+03:00. */
export function localTimestamp(at: Date, zone: string): string {
  const offset = cachedOffset(at, zone)
  const wall = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset).toISOString().slice(0, 19)
  return `${wall}${offsetText(Math.round(offset / 60_000))}`
}

// A store has one or two offsets a year: one string each, not one per CSV row.
const offsetTexts = new Map<number, string>()
/** A UTC offset in minutes as ISO 8601 text: 180 → +03:00, -210 → -03:30. */
export function offsetText(minutes: number): string {
  let text = offsetTexts.get(minutes)
  if (text === undefined) {
    const abs = Math.abs(minutes)
    const pad = (n: number) => String(n).padStart(2, "0")
    text = `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
    if (offsetTexts.size < 1000) offsetTexts.set(minutes, text)
  }
  return text
}

import type { Budget } from "./budget"
import type { BudgetCounter } from "./counter"

/**
 * The store-wide ceiling (startLimitPerMinute) protects PayLater and the store from a flood, but when
 * it refuses, every shopper is refused with it, and someone with many addresses can make it refuse on
 * purpose. So its refusals are made visible: counted per hour for a day and the last one's time kept,
 * in the budgets' own store (Redis or PostgreSQL: the same across instances), for Settings → PayLater;
 * and warned in the log at most once a minute across all instances.
 */

const HOUR_MS = 3600_000
const DAY_HOURS = 24
// Counted, never refused: the maximum only has to be out of reach.
const TALLY: Budget = { max: 1_000_000_000, windowSeconds: (DAY_HOURS + 1) * 3600 }
const WARNING: Budget = { max: 1, windowSeconds: 60 }

const hourKey = (hour: number) => `store-refused:${hour}`
const LAST_KEY = "store-refused:last"
const WARNED_KEY = "store-refused:warned"

export interface CeilingRefusals {
  /** Refusals in the last 24 whole hours and the current one. */
  last_24h: number
  /** When the last one happened, ISO; null when none in that time. */
  last_at: string | null
  /** Hours with refusals, newest first: the hour's start (ISO) and how many. */
  by_hour: Array<{ hour: string; count: number }>
}

/**
 * Records one refusal by the store-wide ceiling. True when this refusal is the minute's first across
 * instances: the caller warns in the log then (and only then). Never throws: a refused start is
 * answered whatever happens to the tally.
 */
export async function recordCeilingRefusal(counter: BudgetCounter, now: Date = new Date()): Promise<boolean> {
  try {
    const hour = Math.floor(now.getTime() / HOUR_MS)
    await counter.spend(hourKey(hour), TALLY)
    // In seconds: the PostgreSQL store keeps an integer.
    await counter.put(LAST_KEY, Math.floor(now.getTime() / 1000), TALLY)
    return (await counter.spend(WARNED_KEY, WARNING)).ok
  } catch {
    return false
  }
}

/** What Settings → PayLater shows about the ceiling's refusals. */
export async function ceilingRefusals(counter: BudgetCounter, now: Date = new Date()): Promise<CeilingRefusals> {
  const current = Math.floor(now.getTime() / HOUR_MS)
  const hours = Array.from({ length: DAY_HOURS + 1 }, (_, i) => current - i)
  const counts = await Promise.all(hours.map((hour) => counter.peek(hourKey(hour), TALLY)))
  const by_hour = hours
    .map((hour, i) => ({ hour: new Date(hour * HOUR_MS).toISOString(), count: counts[i] }))
    .filter((h) => h.count > 0)
  const last_24h = by_hour.reduce((sum, h) => sum + h.count, 0)
  const lastSeconds = last_24h ? await counter.peek(LAST_KEY, TALLY) : 0
  return { last_24h, last_at: lastSeconds ? new Date(lastSeconds * 1000).toISOString() : null, by_hour }
}

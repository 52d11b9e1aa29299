/**
 * PayLater's calls per minute during reconciliation. PayLater publishes no rate limits, so the
 * run spreads its status calls evenly: one may start every 60 s / `maxPerMinute`, whichever lane of
 * the pool asks (at most `maxPerMinute` in any minute, across runs too, since runs never overlap).
 * Pure: the caller passes `now` and waits until the slot it was given.
 */
export interface CallPacer {
  readonly gapMs: number
  /** The earliest instant the next call may start. */
  nextAt: number
}

export function callPacer(maxPerMinute: number, now: number): CallPacer {
  const perMinute = Math.max(1, Math.floor(maxPerMinute) || 1)
  return { gapMs: 60_000 / perMinute, nextAt: now }
}

/** Reserves the next call's start: at `now` or later, never closer than the gap to the previous one. */
export function takeCallSlot(pacer: CallPacer, now: number): number {
  const at = Math.max(now, pacer.nextAt)
  pacer.nextAt = at + pacer.gapMs
  return at
}

/**
 * How many calls a run can make: its time bound at the per-minute rate (rounded up: the first call
 * starts at once). The run selects at most this many due rows, oldest due first.
 */
export function callsPerRun(maxPerMinute: number, runMs: number): number {
  const perMinute = Math.max(1, Math.floor(maxPerMinute) || 1)
  return Math.max(1, Math.ceil((Math.max(0, runMs) * perMinute) / 60_000))
}

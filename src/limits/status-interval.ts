import { setTimeout as sleep } from "node:timers/promises"

/**
 * How often one payment session may cost a PayLater status call, whichever road asks (the shopper's
 * return, a waiting screen's poll, a webhook's success, an admin's check, Medusa's own authorization
 * from a cart completion, its status and retrieve calls): one call per session per this many
 * seconds, across instances (status-slot.ts). Its own file so the payment provider can read it
 * without the limit store.
 */
export const STATUS_CALL_INTERVAL_SECONDS = 5

// How often a caller waiting for the slot tries it again.
export const SLOT_POLL_MS = 250

export interface SlotWait {
  /** Tries to take this interval's slot; true when this caller may ask PayLater now. */
  take(): Promise<boolean>
  /**
   * Try again until the next interval has begun (for a caller that carries news or decides money
   * and must not rest on an older answer) instead of giving up at the first refusal.
   */
  wait?: boolean
  /** The interval, when the caller's differs from STATUS_CALL_INTERVAL_SECONDS. */
  seconds?: number
  sleep?: (ms: number) => Promise<unknown>
  /** Checked after each pause: true ends the wait (the answer arrived by the road holding the slot). */
  settled?: () => Promise<boolean>
}

/** How many times a wait tries: once, or once per pause over an interval and half a second. */
export function slotTries(seconds: number, wait: boolean): number {
  return wait ? Math.ceil((seconds * 1000 + 500) / SLOT_POLL_MS) + 1 : 1
}

/**
 * The one way any road waits for a session's status-call slot. The wait is counted in tries, not
 * read off the wall clock: a clock stepped back while waiting (NTP, or a test moving the store's
 * `Date`) must not stretch one interval's wait into minutes. A slot expires on the clock of whoever
 * took it, so one taken by a server whose clock runs ahead can look held for longer than an
 * interval; the wait still gives up after one interval's tries. False: another caller asks PayLater
 * this interval, `settled` ended the wait, or the store is unreachable.
 */
export async function waitForStatusSlot({ take, wait = false, seconds = STATUS_CALL_INTERVAL_SECONDS, sleep: pause = sleep, settled }: SlotWait): Promise<boolean> {
  const tries = slotTries(seconds, wait)
  for (let i = 1; ; i++) {
    if (await take()) return true
    if (i >= tries) return false
    await pause(SLOT_POLL_MS)
    if (settled && (await settled())) return false
  }
}

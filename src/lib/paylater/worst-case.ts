import { backoffDelay } from "./retry"
import type { PayLaterConfig } from "./types"

/**
 * How long the client can take, at worst, over one create or refund (the calls it sends once). A
 * caller that must tell "still in flight" from "lost" (the refund guard's write-ahead attempts, a
 * session create whose process may have died) derives its limit from this instead of guessing, so a
 * change to the client's timeouts, attempts or backoff moves the limit with it
 * (__tests__/worst-case.suite.ts drives the client through this worst case).
 *
 * The worst case, as client.ts and token.ts are written: the token fetch, up to `maxAttempts`
 * times with backoff between them (the largest jitter each time), each attempt up to `timeoutMs`;
 * the call itself up to `timeoutMs`; PayLater refuses the token (401), so the token is fetched
 * again the same way and the call sent once more.
 */

type ClientTiming = Pick<PayLaterConfig, "timeoutMs" | "maxAttempts">

// The jitter's largest value: random() is below 1.
const WORST_RANDOM = () => 1 - Number.EPSILON

/** A repeatable exchange (the token fetch): every attempt timing out but the last, the longest backoff between. */
export function repeatedWorstCaseMs({ timeoutMs, maxAttempts }: ClientTiming): number {
  let total = maxAttempts * timeoutMs
  for (let attempt = 1; attempt < maxAttempts; attempt++) {
    total += backoffDelay(attempt, WORST_RANDOM)
  }
  return total
}

/** A call sent once (create, refund): token fetch + call, twice over after a refused token. */
export function sentOnceWorstCaseMs(timing: ClientTiming): number {
  return 2 * (repeatedWorstCaseMs(timing) + timing.timeoutMs)
}

/**
 * A call the client repeats (a status read, the shopper look-up): every attempt a call sent once at
 * its worst (token fetch and call, twice over after a refused token), the longest backoff between.
 */
export function repeatedCallWorstCaseMs(timing: ClientTiming): number {
  let total = timing.maxAttempts * sentOnceWorstCaseMs(timing)
  for (let attempt = 1; attempt < timing.maxAttempts; attempt++) {
    total += backoffDelay(attempt, WORST_RANDOM)
  }
  return total
}

// Around the PayLater call: the attempt is written before and settled after (database writes, a busy event loop).
const BOOKKEEPING_MARGIN_MS = 60_000

/**
 * After this long a call sent once and written ahead (a refund attempt still "pending", a create's
 * `starting` row and Medusa's write of its answer) cannot still be in flight in any process.
 */
export function sentOnceStaleAfterMs(timing: ClientTiming): number {
  return sentOnceWorstCaseMs(timing) + BOOKKEEPING_MARGIN_MS
}

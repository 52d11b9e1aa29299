import { isPayLaterError } from "./errors"

/**
 * Exponential backoff for calls that are safe to repeat (token, status, shopper lookup). Only
 * failures that a later attempt can cure are retried: no answer, or a 5xx.
 */

export interface RetryOptions {
  maxAttempts: number
  sleep: (ms: number) => Promise<void>
  /** 0 ≤ random() < 1; jitter spreads retries of many callers apart. */
  random?: () => number
  /** Errors of this operation are not retried (e.g. a token failure inside a status call). */
  skip?: (error: unknown) => boolean
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void
}

const BASE_DELAY_MS = 250
const MAX_DELAY_MS = 4000
const MAX_JITTER_MS = 100

export function isTransient(error: unknown): boolean {
  return (
    isPayLaterError(error) &&
    (error.code === "TIMEOUT" || error.code === "NETWORK" || error.code === "SERVER_ERROR")
  )
}

export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return exponential + Math.floor(random() * MAX_JITTER_MS)
}

export const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms)
  })

export async function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  options: RetryOptions
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt)
    } catch (error) {
      const retry =
        attempt < options.maxAttempts && isTransient(error) && !(options.skip?.(error) ?? false)
      if (!retry) {
        throw error
      }
      const delay = backoffDelay(attempt, options.random)
      options.onRetry?.(error, attempt, delay)
      await options.sleep(delay)
    }
  }
}

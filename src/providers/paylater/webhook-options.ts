import { wholeNumberOption } from "./reconcile-options"

/**
 * Options of the webhook route's deferred settlement (src/api/paylater/webhooks,
 * src/signal-handlers/webhook-slots.ts), kept with the other provider options so a wrong value stops boot.
 */
export interface WebhookOptionsInput {
  /**
   * At most this many verified notifications are settled at a time in one process (1-64). Unset:
   * 2, or half of the database pool Medusa was configured with when that is smaller, so a storm of
   * notifications leaves checkouts and the admin the rest of the pool and of the CPU.
   */
  webhookConcurrency?: number | string
  /**
   * How long a verified notification waits before it is settled, in milliseconds (0-60000; default
   * 5000, as Medusa's own /hooks/payment route): the shopper's return usually settles it first.
   * Tests set it low so that they do not wait 5 s for every notification.
   */
  webhookDelayMs?: number | string
}

export interface WebhookSettings {
  /** Null: not set, the default is taken from the database pool at run time. */
  concurrency: number | null
  delayMs: number
}

export const WEBHOOK_DELAY_DEFAULT_MS = 5000
export const WEBHOOK_CONCURRENCY_MAX = 64

/** Reads the webhook options; `problems` collects what is wrong (reported with every other option problem). */
export function readWebhookOptions(raw: Record<string, unknown>, problems: string[]): WebhookSettings {
  const unset = raw.webhookConcurrency === undefined || raw.webhookConcurrency === null || raw.webhookConcurrency === ""
  const concurrency = wholeNumberOption(
    raw,
    "webhookConcurrency",
    1,
    WEBHOOK_CONCURRENCY_MAX,
    0,
    "verified webhooks settled at a time per process",
    problems
  )
  return {
    concurrency: unset ? null : concurrency,
    delayMs: wholeNumberOption(
      raw,
      "webhookDelayMs",
      0,
      60_000,
      WEBHOOK_DELAY_DEFAULT_MS,
      "milliseconds a verified webhook waits before it is settled",
      problems
    ),
  }
}

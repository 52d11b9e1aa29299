import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { configuredRegistrations } from "../medusa-records/registrations"
import { processSingleton } from "../process-wide/process-slot"
import { WEBHOOK_SLOTS_SLOT } from "../process-wide/slot-keys"
import { FifoLimiter } from "./fifo-limiter"

/**
 * How many verified notifications are settled at a time in this process, whichever event bus
 * delivers them. The in-memory bus calls every subscriber the moment its delay ends, without
 * waiting for the previous one; the Redis bus calls it once per job, as many at a time as its
 * worker's `concurrency`. Unbounded, a retry burst of 10,000 notifications became 10,000
 * settlements at once, each with its own ORM context, all waiting for the same database pool (peak
 * RSS ~1.5 GB above idle). Here they wait their turn in arrival order, each as one resolver.
 */

// Knex's pool default, which Medusa keeps unless `projectConfig.databaseDriverOptions.pool.max` is set.
const MEDUSA_DEFAULT_POOL_MAX = 10
/*
 * Unset, at most two at a time, and never more than half the pool. A settlement is mostly CPU in
 * the one Node thread that also serves checkouts: bench/checkout-storm.js, quiet machine, 10,000
 * notifications: 5 at a time drained the backlog 22 s after the storm began but checkout p95 while
 * settling was 2.25x the quiet p95; 2 at a time drained it in 28-35 s with checkout at 1.42-1.84x. A shopper
 * waiting at checkout matters more than a notification PayLater already had its 200 for.
 */
const DEFAULT_CONCURRENCY_CAP = 2
// A settlement normally takes milliseconds; one still running after this gives its slot to the next.
const SLOT_TIMEOUT_MS = 60_000

/**
 * The process-wide limiter (its `running`, `waiting` and `completed` show the backlog). One per
 * process, not per copy of the package: two copies (pnpm) with a limiter each would double the bound.
 */
export function webhookSlots(): FifoLimiter {
  return processSingleton(WEBHOOK_SLOTS_SLOT, () => new FifoLimiter(DEFAULT_CONCURRENCY_CAP))
}

const sized = new WeakMap<object, number>()

/** The size of the database pool this app's connection was built with. */
function poolMax(container: MedusaContainer): number {
  try {
    const connection = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { client?: { pool?: { max?: unknown } } }
    const max = connection?.client?.pool?.max
    if (typeof max === "number" && Number.isSafeInteger(max) && max > 0) return max
  } catch {
    // No shared connection registered (a unit test's container): Medusa's default.
  }
  return MEDUSA_DEFAULT_POOL_MAX
}

/**
 * The bound for this app: the smallest `webhookConcurrency` a PayLater registration sets; unset,
 * 2, or half the database pool when that is smaller (at least 1): checkouts and the admin keep the
 * rest of the pool and of the CPU.
 */
export function webhookConcurrency(container: MedusaContainer): number {
  let n = sized.get(container)
  if (n === undefined) {
    const explicit = configuredRegistrations(container)
      .map((r) => r.options?.webhooks.concurrency)
      .filter((c): c is number => typeof c === "number")
    n = explicit.length ? Math.min(...explicit) : Math.max(1, Math.min(DEFAULT_CONCURRENCY_CAP, Math.floor(poolMax(container) / 2)))
    sized.set(container, n)
  }
  return n
}

/** Runs one notification's settlement in its turn; resolves or throws as the settlement does. */
export function settleInTurn<T>(container: MedusaContainer, settle: () => Promise<T>): Promise<T> {
  const limiter = webhookSlots()
  const limit = webhookConcurrency(container)
  if (limiter.size !== limit) limiter.setLimit(limit)
  return limiter.run(settle, {
    slotTimeoutMs: SLOT_TIMEOUT_MS,
    onOverrun: () =>
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`PayLater: a webhook settlement has run for over ${SLOT_TIMEOUT_MS / 1000} s; the next one starts beside it`),
  })
}

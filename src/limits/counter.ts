import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible"
import type { Budget } from "./budget"
import type { LimitStore } from "./store"

/**
 * Budgets counted by `rate-limiter-flexible` (a well-kept limiter with memory, Redis and PostgreSQL
 * stores), on whichever store holds across this store's instances (store.ts). Each use is one
 * atomic increment in the store (a Lua script in Redis, an INSERT ... ON CONFLICT in PostgreSQL), so
 * at most `max` uses pass per window, even when instances race. A key's window starts at its first
 * use and ends `windowSeconds` later, so a refusal knows exactly when a use frees (Retry-After).
 */

export type Spent = { ok: true } | { ok: false; retryAfterSeconds: number }

export interface BudgetCounter {
  /** Spends one use of `budget` under `key`. Throws when the store itself fails. */
  spend(key: string, budget: Budget): Promise<Spent>
  /** Gives one use back (a request refused by another budget did not spend this one). */
  giveBack(key: string, budget: Budget): Promise<void>
  /** The uses counted under `key` in its current window (0 when none); spends nothing. */
  peek(key: string, budget: Budget): Promise<number>
  /** Writes `value` under `key` for the budget's window (a fact to share across instances, e.g. a time). */
  put(key: string, value: number, budget: Budget): Promise<void>
}

const KEY_PREFIX = "paylater-limit"

function limiterFor(store: LimitStore, budget: Budget): RateLimiterAbstract {
  const options = { points: budget.max, duration: budget.windowSeconds, keyPrefix: `${store.prefix}${KEY_PREFIX}` }
  switch (store.kind) {
    case "redis":
      // Refuse at once while Redis is unreachable rather than queueing the command.
      return new RateLimiterRedis({ ...options, storeClient: store.client, rejectIfRedisNotReady: true })
    case "postgres":
      // store.ts has created the table before the first counter is made.
      return new RateLimiterPostgres({ ...options, storeClient: store.knex, storeType: "knex", tableName: store.table, tableCreated: true })
    case "memory":
      return new RateLimiterMemory(options)
  }
}

export function budgetCounter(store: LimitStore): BudgetCounter {
  // One limiter per budget shape; the key names the budget and what it is counted for.
  const limiters = new Map<string, RateLimiterAbstract>()
  const limiter = (budget: Budget) => {
    const shape = `${budget.max}/${budget.windowSeconds}`
    let found = limiters.get(shape)
    if (!found) {
      found = limiterFor(store, budget)
      limiters.set(shape, found)
    }
    return found
  }
  // PostgreSQL's "relation does not exist": the table is made again and the use tried once more.
  const withTable = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (store.kind !== "postgres" || (error as { code?: unknown })?.code !== "42P01") throw error
      await store.createTable()
      return run()
    }
  }
  return {
    async spend(key, budget) {
      try {
        await withTable(() => limiter(budget).consume(key, 1))
        return { ok: true }
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) {
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) }
        }
        throw refusal
      }
    },
    async giveBack(key, budget) {
      await withTable(() => limiter(budget).reward(key, 1)).catch(() => undefined)
    },
    async peek(key, budget) {
      const found = await withTable(() => limiter(budget).get(key))
      return found?.consumedPoints ?? 0
    },
    async put(key, value, budget) {
      await withTable(() => limiter(budget).set(key, value, budget.windowSeconds))
    },
  }
}

import Redis from "ioredis"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { budgetCounter, type BudgetCounter } from "./counter"

/**
 * Where the budgets are counted, so that they hold across every instance of this store:
 *
 * - **Redis** when Medusa is configured with one (`projectConfig.redisUrl`, as a store with several
 *   instances is: docs/production.md), under `projectConfig.redisPrefix`;
 * - otherwise **Medusa's own PostgreSQL database** (its `__pg_connection__`), in the table
 *   `paylater_rate_limit`: every instance shares it, so budgets hold across instances even without
 *   Redis, and a single instance needs nothing more;
 * - memory only when neither exists (unit tests).
 *
 * Medusa's locking module is no longer used for this: it only offers locks, so a budget of N had to
 * be N lock keys tried one by one, and locking-postgres never frees an expired key held by another
 * owner (the old counters needed the window in every key, leaving a row per window behind).
 */

export type LimitStore =
  | { kind: "redis"; client: Redis; prefix: string }
  | { kind: "postgres"; knex: Knex; table: string; prefix: string; createTable(): Promise<void> }
  | { kind: "memory"; prefix: string }

export const LIMIT_TABLE = "paylater_rate_limit"

function optional<T>(container: MedusaContainer, key: string): T | undefined {
  try {
    return container.resolve<T>(key, { allowUnregistered: true }) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * rate-limiter-flexible's own schema, made by the plugin at first use rather than by a migration:
 * IF NOT EXISTS because every instance does this, and again if the table disappears under a running
 * store (a database restored from a copy, as the integration test runner does before each test).
 */
async function createTable(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE TABLE IF NOT EXISTS "${LIMIT_TABLE}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`
  )
}

async function openStore(container: MedusaContainer): Promise<LimitStore> {
  const project = optional<{ projectConfig?: { redisUrl?: string; redisPrefix?: string } }>(
    container,
    ContainerRegistrationKeys.CONFIG_MODULE
  )?.projectConfig
  const prefix = project?.redisPrefix ?? ""
  if (project?.redisUrl) {
    // Short timeouts: a start waits for its budgets, and an unreachable Redis must answer 503, not hang.
    const client = new Redis(project.redisUrl, { connectTimeout: 5_000, commandTimeout: 2_000, maxRetriesPerRequest: 1, lazyConnect: true })
    // Failures surface as refused uses (503 for a start); ioredis keeps reconnecting by itself.
    client.on("error", () => undefined)
    try {
      await client.connect()
    } catch (error) {
      client.disconnect()
      throw error
    }
    return { kind: "redis", client, prefix }
  }
  const knex = optional<Knex>(container, ContainerRegistrationKeys.PG_CONNECTION)
  if (knex) {
    await createTable(knex)
    return { kind: "postgres", knex, table: LIMIT_TABLE, prefix, createTable: () => createTable(knex) }
  }
  return { kind: "memory", prefix }
}

// One store per Medusa application (one per process in a running store; one per app in tests). Keyed
// by the application's own singletons, not by the container passed in: a route's container is a
// scope made for that one request, and a store per request would be a connection per request.
const counters = new WeakMap<object, Promise<BudgetCounter>>()

function applicationOf(container: MedusaContainer): object {
  return (
    optional<object>(container, ContainerRegistrationKeys.PG_CONNECTION) ??
    optional<object>(container, ContainerRegistrationKeys.CONFIG_MODULE) ??
    container
  )
}

/** The budget counter of this Medusa store; the first call opens its store. */
export function countersOf(container: MedusaContainer): Promise<BudgetCounter> {
  const application = applicationOf(container)
  let found = counters.get(application)
  if (!found) {
    found = openStore(container).then(budgetCounter)
    // A failed open (Redis down at that moment) is tried again by the next request.
    found.catch(() => counters.delete(application))
    counters.set(application, found)
  }
  return found
}

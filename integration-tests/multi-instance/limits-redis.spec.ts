/**
 * The store API's budgets (src/limits) as several instances share them: two counters on two Redis
 * connections, and two on two PostgreSQL connection pools, stand for two servers. No Medusa boot:
 * the counters depend only on their store (src/limits/store.ts picks Redis when Medusa has a
 * redisUrl, else Medusa's own database). Redis keys live under this run's own prefix; the database
 * is this run's own.
 */
import { randomUUID } from "node:crypto"
import type Redis from "ioredis"
import { knex as makeKnex, type Knex } from "@medusajs/framework/mikro-orm/knex"
import { Client } from "pg"
import { readLimitOptions } from "../../src/providers/paylater/limit-options"
import { budgetCounter, type BudgetCounter } from "../../src/limits/counter"
import { LIMIT_TABLE } from "../../src/limits/store"
import { spendPushBudget, spendStartBudgets } from "../../src/limits/payment-start"
import { connectRedis, DEFAULT_REDIS_URL, deleteKeys } from "./redis"

const REDIS_URL = process.env.PAYLATER_TEST_REDIS_URL || DEFAULT_REDIS_URL
const PREFIX = `paylater-test-limits-${randomUUID().slice(0, 8)}:`
const LIMITS = readLimitOptions({}, [])

const pgServer = {
  host: process.env.DB_HOST ?? "localhost",
  port: Number(process.env.DB_PORT ?? 5432),
  user: process.env.DB_USERNAME ?? "postgres",
  password: process.env.DB_PASSWORD ?? "",
}
const DATABASE = `paylater_limits_${process.pid}`

async function sql(statement: string): Promise<void> {
  const client = new Client({ ...pgServer, database: "postgres" })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

async function postgresCounter(pool: Knex): Promise<BudgetCounter> {
  const createTable = async () => {
    await pool.raw(`CREATE TABLE IF NOT EXISTS "${LIMIT_TABLE}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`)
  }
  await createTable()
  return budgetCounter({ kind: "postgres", knex: pool, table: LIMIT_TABLE, prefix: PREFIX, createTable })
}

let connections: Redis[] = []
let pools: Knex[] = []
const stores: Record<"redis" | "postgres", BudgetCounter[]> = { redis: [], postgres: [] }

beforeAll(async () => {
  connections = [await connectRedis(REDIS_URL), await connectRedis(REDIS_URL)]
  stores.redis = connections.map((client) => budgetCounter({ kind: "redis", client, prefix: PREFIX }))
  await sql(`create database "${DATABASE}"`)
  pools = [0, 1].map(() => makeKnex({ client: "pg", connection: { ...pgServer, database: DATABASE }, pool: { min: 0, max: 4 } }))
  // The second instance finds the table the first one made (CREATE TABLE IF NOT EXISTS on both).
  stores.postgres = [await postgresCounter(pools[0]), await postgresCounter(pools[1])]
}, 60_000)

afterAll(async () => {
  if (connections[0]) await deleteKeys(connections[0], `${PREFIX}*`)
  for (const c of connections) c.disconnect()
  for (const p of pools) await p.destroy()
  await sql(`drop database if exists "${DATABASE}" with (force)`).catch(() => undefined)
  // Set-up and clean-up only (two connections, two pools, a database made and dropped): on a loaded CI
  // machine the clean-up took longer than jest's 5 s hook default once, failing the suite after every
  // test had passed.
}, 60_000)

describe.each(["redis", "postgres"] as const)("budgets shared by two instances through %s", (kind) => {
  const servers = () => stores[kind]

  it("a number's 4th push is refused whichever instance takes it", async () => {
    const mobile = `9743300${kind === "redis" ? "1" : "2"}001`
    const verdicts = []
    for (let i = 0; i < 4; i++) verdicts.push(await spendPushBudget(servers()[i % 2], LIMITS, mobile, "secret"))
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false])
    expect(verdicts[3]).toMatchObject({ spent: "mobile" })
  })

  it("a client's starts count on both instances", async () => {
    const client = kind === "redis" ? "192.0.2.10" : "192.0.2.11"
    const verdicts = []
    for (let i = 0; i < LIMITS.startsPerClient.max + 1; i++) {
      verdicts.push(await spendStartBudgets(servers()[i % 2], LIMITS, { requestToPay: false, paymentCollectionId: `pay_col_${kind}_${i}`, client }))
    }
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(LIMITS.startsPerClient.max)
    expect(verdicts[LIMITS.startsPerClient.max]).toMatchObject({ allowed: false, spent: "client" })
  })

  it("lets exactly max uses through when both instances race for one budget", async () => {
    const budget = { max: 5, windowSeconds: 3600 }
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => servers()[i % 2].spend(`cart:race:${kind}`, budget)))
    expect(results.filter((r) => r.ok)).toHaveLength(5)
  })
})

describe("the Redis store", () => {
  it("keeps a use no longer than its window (Redis expires the key itself)", async () => {
    const budget = { max: 1, windowSeconds: 600 }
    expect((await stores.redis[0].spend("cart:ttl", budget)).ok).toBe(true)
    const [key] = await connections[1].keys(`${PREFIX}*cart:ttl`)
    const ttl = await connections[1].ttl(key)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(600)
    expect(await stores.redis[1].spend("cart:ttl", budget)).toMatchObject({ ok: false })
  })
})

describe("the PostgreSQL store", () => {
  it("makes its table again when it disappears under a running store (a restored database)", async () => {
    await pools[0].raw(`DROP TABLE "${LIMIT_TABLE}"`)
    expect(await stores.postgres[1].spend("after-drop", { max: 1, windowSeconds: 60 })).toEqual({ ok: true })
    expect(await stores.postgres[0].spend("after-drop", { max: 1, windowSeconds: 60 })).toMatchObject({ ok: false })
  })
})

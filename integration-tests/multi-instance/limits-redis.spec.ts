/**
 * The store API's budgets (src/limits) with Medusa's Redis locking provider, as several instances
 * use it: two providers on two Redis connections stand for two servers. No Medusa boot: the counter
 * depends only on the locking module's interface, and this is the provider a multi-instance store
 * configures (medusa-config.ts, docs/production.md). Keys live under this run's own prefix.
 */
import { randomUUID } from "node:crypto"
import type Redis from "ioredis"
import { RedisLockingProvider } from "@medusajs/locking-redis/dist/services/redis-lock"
import { resolveProviderOptions } from "../../src/providers/paylater/options"
import { spendPaymentStartBudget } from "../../src/limits/payment-start"
import { takeSlot, type SlotLocking } from "../../src/limits/slots"
import { connectRedis, DEFAULT_REDIS_URL, deleteKeys } from "./redis"

const REDIS_URL = process.env.PAYLATER_TEST_REDIS_URL || DEFAULT_REDIS_URL
const PREFIX = `paylater-test-limits-${randomUUID().slice(0, 8)}:`
const OPTIONS = resolveProviderOptions({
  clientId: "c",
  clientSecret: "s",
  outletId: 1000000061,
  webhookSecret: "w",
  backendUrl: "https://api.shop.qa",
  storefrontUrl: "https://shop.qa",
})

let connections: Redis[] = []
let servers: SlotLocking[] = []

beforeAll(async () => {
  connections = [await connectRedis(REDIS_URL), await connectRedis(REDIS_URL)]
  servers = connections.map(
    (redisClient) => new RedisLockingProvider({ redisClient, prefix: PREFIX, logger: console } as never, {}) as unknown as SlotLocking
  )
})

afterAll(async () => {
  if (connections[0]) await deleteKeys(connections[0], `${PREFIX}*`)
  for (const c of connections) c.disconnect()
})

describe("budgets shared through Redis by two instances", () => {
  it("a number's 4th Request to Pay is refused whichever instance takes it", async () => {
    const rtp = (collection: string) => ({
      providerId: "pp_paylater-rtp_paylater",
      paymentCollectionId: collection,
      data: { mobile_number: "51118021" },
    })
    const verdicts = [
      await spendPaymentStartBudget(servers[0], OPTIONS, rtp("pay_col_a")),
      await spendPaymentStartBudget(servers[1], OPTIONS, rtp("pay_col_b")),
      await spendPaymentStartBudget(servers[0], OPTIONS, rtp("pay_col_c")),
      await spendPaymentStartBudget(servers[1], OPTIONS, rtp("pay_col_d")),
    ]
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false])
    expect(verdicts[3]).toMatchObject({ spent: "mobile" })
  })

  it("lets exactly max uses through when both instances race for one budget", async () => {
    const budget = { max: 5, windowSeconds: 3600 }
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => takeSlot(servers[i % 2], "cart:race", budget)))
    expect(results.filter(Boolean)).toHaveLength(5)
  })

  it("a use expires with its window in Redis itself", async () => {
    const budget = { max: 1, windowSeconds: 600 }
    const taken = await takeSlot(servers[0], "cart:ttl", budget)
    expect(taken).not.toBeNull()
    const ttl = await connections[1].ttl(`${PREFIX}${taken!.key}`)
    // Set by Redis with the window (never left without expiry, never longer than the window).
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(600)
    expect(await takeSlot(servers[1], "cart:ttl", budget)).toBeNull()
  })
})

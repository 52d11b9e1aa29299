/**
 * The Redis side of the multi-instance test: a reachability check that fails loudly, the event
 * queue's backlog (to know when the webhook pipeline has drained), and clean-up of this run's keys
 * only: everything the servers create lives under the run's MEDUSA_REDIS_PREFIX (see
 * medusa-config.ts). Never FLUSHALL/FLUSHDB: the Redis may be shared with anything else.
 */
import Redis from "ioredis"

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379"

/** Connects once, without retrying forever; throws a message that says what to do. */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  })
  // The socket's own error (ECONNREFUSED ...) says more than connect()'s "Connection is closed".
  let socketError: Error | undefined
  redis.on("error", (error: Error) => {
    socketError = error
  })
  try {
    await redis.connect()
    const pong = await redis.ping()
    if (pong !== "PONG") throw new Error(`PING answered ${pong}`)
  } catch (error) {
    redis.disconnect()
    throw new Error(
      `Redis is not reachable at ${url} (${(socketError ?? (error as Error)).message}). The multi-instance test needs a real Redis: ` +
        `start one (e.g. \`apt-get install redis-server && redis-server --daemonize yes\`) or point REDIS_URL at one.`
    )
  }
  return redis
}

/** Jobs the event bus still has to run (waiting, delayed, running) under this prefix. */
export async function eventQueueBacklog(redis: Redis, prefix: string): Promise<number> {
  const q = `${prefix}:bull:events-queue`
  const [wait, active, paused, delayed, prioritized, waitingChildren] = await Promise.all([
    redis.llen(`${q}:wait`),
    redis.llen(`${q}:active`),
    redis.llen(`${q}:paused`),
    redis.zcard(`${q}:delayed`),
    redis.zcard(`${q}:prioritized`),
    redis.zcard(`${q}:waiting-children`),
  ])
  return wait + active + paused + delayed + prioritized + waitingChildren
}

export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = "0"
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500)
    cursor = next
    keys.push(...batch)
  } while (cursor !== "0")
  return keys
}

/** Deletes the keys matching `pattern` (SCAN + UNLINK, never KEYS or FLUSH*); returns how many. */
export async function deleteKeys(redis: Redis, pattern: string): Promise<number> {
  const keys = await scanKeys(redis, pattern)
  for (let i = 0; i < keys.length; i += 500) {
    await redis.unlink(...keys.slice(i, i + 500))
  }
  return keys.length
}

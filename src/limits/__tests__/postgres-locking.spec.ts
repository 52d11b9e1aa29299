import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { takeStatusSlot } from "../../settlement/transitions"
import { isHeldByAnother, takeSlot, type SlotLocking } from "../slots"

/**
 * Behaves as @medusajs/locking-postgres's acquire (dist/services/advisory-lock.js): a key held by
 * another owner throws, whatever its expiration (expired rows are never deleted), with the provider's
 * own messages: "Failed to acquire lock..." when the row is read first, "... is already locked." when
 * an insert loses the race to another one.
 */
class PostgresLikeLocking implements SlotLocking {
  rows = new Map<string, string | null>()
  insertRaces = 0

  async acquire(keys: string | string[], args?: { ownerId?: string | null; expire?: number }): Promise<void> {
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      const ownerId = args?.ownerId ?? null
      if (!this.rows.has(key)) {
        if (this.insertRaces > 0) {
          // Another instance inserts the row between this one's SELECT and INSERT.
          this.insertRaces--
          this.rows.set(key, "another-instance")
          throw new Error(`"${key}" is already locked.`)
        }
        this.rows.set(key, ownerId)
        continue
      }
      const owner = this.rows.get(key)
      if (owner === null || owner !== ownerId) throw new Error(`Failed to acquire lock for key "${key}"`)
    }
  }

  async release(keys: string | string[], args?: { ownerId?: string | null }): Promise<boolean> {
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      if (this.rows.get(key) === (args?.ownerId ?? null)) this.rows.delete(key)
    }
    return true
  }
}

const budget = { max: 3, windowSeconds: 600 }
const at = (iso: string) => new Date(iso).getTime()

describe("budgets on a locking provider that never frees an expired key (locking-postgres)", () => {
  it("a spent budget frees in the next window, not never", async () => {
    const lock = new PostgresLikeLocking()
    const uses = []
    for (let i = 0; i < 4; i++) uses.push(await takeSlot(lock, "mobile:a", budget, at("2026-11-24T10:00:00Z")))
    expect(uses.map(Boolean)).toEqual([true, true, true, false])
    expect(await takeSlot(lock, "mobile:a", budget, at("2026-11-24T10:09:59Z"))).toBeNull()

    const next = []
    for (let i = 0; i < 4; i++) next.push(await takeSlot(lock, "mobile:a", budget, at("2026-11-24T10:10:00Z")))
    expect(next.map(Boolean)).toEqual([true, true, true, false])
    expect(await takeSlot(lock, "mobile:a", budget, at("2026-11-25T10:00:00Z"))).not.toBeNull()
  })

  it("a key lost to a concurrent insert counts as held (not a 500), and the next key is tried", async () => {
    const lock = new PostgresLikeLocking()
    const now = at("2026-11-24T10:00:00Z")
    expect(await takeSlot(lock, "cart:x", budget, now)).not.toBeNull()
    lock.insertRaces = 1
    const third = await takeSlot(lock, "cart:x", budget, now)
    expect(third?.key).toMatch(/:2$/)
    expect(await takeSlot(lock, "cart:x", budget, now)).toBeNull()
  })

  it("tells every provider's 'held' from a real failure", () => {
    expect(isHeldByAnother(new Error('Failed to acquire lock for key "paylater:limit:cart:x:1:0"'))).toBe(true)
    expect(isHeldByAnother(new Error('"paylater:limit:cart:x:1:0" is already locked.'))).toBe(true)
    expect(isHeldByAnother(new Error("connect ECONNREFUSED 127.0.0.1:6379"))).toBe(false)
    expect(isHeldByAnother(new Error("Timed-out acquiring lock."))).toBe(false)
    expect(isHeldByAnother(undefined)).toBe(false)
  })
})

describe("the status-call slot on a locking provider that never frees an expired key", () => {
  it("is taken once per interval and frees in the next one", async () => {
    const lock = new PostgresLikeLocking()
    const container = { resolve: (key: string) => (key === Modules.LOCKING ? lock : undefined) } as unknown as MedusaContainer
    expect(await takeStatusSlot(container, "payses_1", 5, at("2026-11-24T10:00:00Z"))).toBe(true)
    expect(await takeStatusSlot(container, "payses_1", 5, at("2026-11-24T10:00:04.999Z"))).toBe(false)
    expect(await takeStatusSlot(container, "payses_2", 5, at("2026-11-24T10:00:04Z"))).toBe(true)
    expect(await takeStatusSlot(container, "payses_1", 5, at("2026-11-24T10:00:05Z"))).toBe(true)
    expect(await takeStatusSlot(container, "payses_1", 5, at("2026-11-24T10:00:06Z"))).toBe(false)
  })
})

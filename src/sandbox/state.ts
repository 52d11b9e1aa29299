import type { DeliveryRecord, OrderRecord, RequestRecord } from "./types"

/**
 * Virtual clock: real time plus an offset, so tests can jump past expiry and refund windows
 * without waiting, while time still flows naturally between calls.
 */
export class Clock {
  private offsetMs = 0

  now(): number {
    return Date.now() + this.offsetMs
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now()
  }

  advance(ms: number): void {
    this.offsetMs += ms
  }

  get offset(): number {
    return this.offsetMs
  }

  reset(): void {
    this.offsetMs = 0
  }
}

/** Map that forgets its oldest entries beyond `max` (insertion order), so memory stays bounded. */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>()

  constructor(
    private readonly max: () => number,
    private readonly onEvict?: (key: K, value: V) => void
  ) {}

  get(key: K): V | undefined {
    return this.map.get(key)
  }

  has(key: K): boolean {
    return this.map.has(key)
  }

  set(key: K, value: V): void {
    this.map.set(key, value)
    while (this.map.size > this.max()) {
      const oldest = this.map.keys().next()
      if (oldest.done) break
      const evicted = this.map.get(oldest.value) as V
      this.map.delete(oldest.value)
      this.onEvict?.(oldest.value, evicted)
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key)
  }

  values(): IterableIterator<V> {
    return this.map.values()
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries()
  }

  get size(): number {
    return this.map.size
  }

  clear(): void {
    this.map.clear()
  }
}

/** Append-only list that drops its oldest items beyond `max`. */
export class BoundedList<T> {
  private items: T[] = []

  constructor(private readonly max: () => number) {}

  push(item: T): void {
    this.items.push(item)
    const excess = this.items.length - this.max()
    if (excess > 0) this.items.splice(0, excess)
  }

  all(): T[] {
    return this.items.slice()
  }

  get length(): number {
    return this.items.length
  }

  clear(): void {
    this.items = []
  }
}

/**
 * Every timer the sandbox starts goes through here so that stop() and reset() can cancel them all:
 * jest must find no open handle after stop(). Timers are unref'd because the listening server is
 * what keeps a CLI process alive, never a pending retry.
 */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>()

  after(ms: number, fn: () => void): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.pending.delete(handle)
      fn()
    }, Math.max(0, ms))
    handle.unref()
    this.pending.add(handle)
    return handle
  }

  every(ms: number, fn: () => void): NodeJS.Timeout {
    const handle = setInterval(fn, ms)
    handle.unref()
    this.pending.add(handle)
    return handle
  }

  cancel(handle: NodeJS.Timeout): void {
    clearTimeout(handle)
    clearInterval(handle)
    this.pending.delete(handle)
  }

  cancelAll(): void {
    for (const handle of this.pending) {
      clearTimeout(handle)
      clearInterval(handle)
    }
    this.pending.clear()
  }

  get size(): number {
    return this.pending.size
  }
}

export interface TokenEntry {
  clientId: string
  expiresAt: number
}

/** All mutable records of one sandbox. */
export class Store {
  readonly orders: BoundedMap<string, OrderRecord>
  /** Hosted-page uuid → order id; entries leave with their order. */
  readonly linkIndex = new Map<string, string>()
  readonly accessTokens: BoundedMap<string, TokenEntry>
  readonly refreshTokens: BoundedMap<string, TokenEntry>
  readonly requests: BoundedList<RequestRecord>
  readonly deliveries: BoundedList<DeliveryRecord>
  private sequence = 0

  constructor(maxRecords: () => number) {
    this.orders = new BoundedMap(maxRecords, (_id, order) => {
      if (order.link) this.linkIndex.delete(order.link.uuid)
    })
    this.accessTokens = new BoundedMap(maxRecords)
    this.refreshTokens = new BoundedMap(maxRecords)
    this.requests = new BoundedList(maxRecords)
    this.deliveries = new BoundedList(maxRecords)
  }

  nextId(): number {
    this.sequence += 1
    return this.sequence
  }

  snapshot(): { sequence: number; orders: OrderRecord[] } {
    return { sequence: this.sequence, orders: [...this.orders.values()] }
  }

  /** Puts back what `snapshot()` gave, e.g. from a state file written by an earlier run. */
  restore(sequence: number, orders: OrderRecord[]): void {
    this.sequence = Math.max(this.sequence, sequence)
    for (const order of orders) {
      this.orders.set(order.orderId, order)
      if (order.link) this.linkIndex.set(order.link.uuid, order.orderId)
    }
  }

  /** Drops tokens whose lifetime ran out on the virtual clock. */
  purgeExpiredTokens(now: number): void {
    for (const map of [this.accessTokens, this.refreshTokens]) {
      for (const [token, entry] of map.entries()) {
        if (entry.expiresAt <= now) map.delete(token)
      }
    }
  }

  clear(): void {
    this.orders.clear()
    this.linkIndex.clear()
    this.accessTokens.clear()
    this.refreshTokens.clear()
    this.requests.clear()
    this.deliveries.clear()
  }
}

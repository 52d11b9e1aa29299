import { EventEmitter } from "node:events"
import { oneStartAtATime, START_BUSY_CODE } from "../one-start-at-a-time"

jest.mock("../../../../medusa-records/registrations", () => ({
  registeredProviderOptions: (_scope: unknown, providerId: string) => (providerId.startsWith("pp_paylater") ? { config: {} } : null),
}))

/** Medusa's locking module as the middleware uses it: `execute` waits for the key up to `timeout` seconds. */
function fakeLocking() {
  const tails = new Map<string, Promise<void>>()
  return {
    async execute<T>(key: string, job: () => Promise<T>, opts: { timeout: number }): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve()
      let release!: () => void
      const mine = new Promise<void>((r) => (release = r))
      tails.set(key, before.then(() => mine))
      const waited = await Promise.race([before.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), opts.timeout * 1000))])
      if (!waited) {
        release()
        throw new Error(`Timed-out acquiring lock: ${key}`)
      }
      try {
        return await job()
      } finally {
        release()
      }
    },
  }
}

function request(locking: ReturnType<typeof fakeLocking>, providerId: string, collectionId = "pay_col_1") {
  const emitter = new EventEmitter()
  const res = Object.assign(emitter, {
    headersSent: false,
    statusCode: 200,
    body: undefined as unknown,
    status(code: number) {
      res.statusCode = code
      return res
    },
    json(body: unknown) {
      res.body = body
      res.headersSent = true
      return res.end()
    },
    end() {
      res.headersSent = true
      emitter.emit("finish")
      return res
    },
  })
  const req = { body: { provider_id: providerId }, params: { id: collectionId }, scope: { resolve: () => locking } }
  return { req, res }
}

describe("oneStartAtATime", () => {
  it("runs a second PayLater start for the same collection only once the first has answered", async () => {
    const locking = fakeLocking()
    const order: string[] = []
    const first = request(locking, "pp_paylater_paylater")
    const second = request(locking, "pp_paylater-rtp_paylater")
    const a = oneStartAtATime(first.req as never, first.res as never, () => void order.push("first starts"))
    const b = oneStartAtATime(second.req as never, second.res as never, () => void order.push("second starts"))
    await new Promise((r) => setTimeout(r, 20))
    expect(order).toEqual(["first starts"])
    order.push("first answers")
    first.res.end()
    await a
    await new Promise((r) => setTimeout(r, 20))
    expect(order).toEqual(["first starts", "first answers", "second starts"])
    second.res.end()
    await b
  })

  it("keeps the lock while a start whose client went away is still running", async () => {
    const locking = fakeLocking()
    const order: string[] = []
    const first = request(locking, "pp_paylater_paylater")
    const a = oneStartAtATime(first.req as never, first.res as never, () => void order.push("first starts"))
    const second = request(locking, "pp_paylater_paylater")
    const b = oneStartAtATime(second.req as never, second.res as never, () => void order.push("second starts"))
    first.res.emit("close")
    await new Promise((r) => setTimeout(r, 20))
    expect(order).toEqual(["first starts"])
    first.res.end()
    await a
    await new Promise((r) => setTimeout(r, 20))
    expect(order).toEqual(["first starts", "second starts"])
    second.res.end()
    await b
  })

  it("does not hold other collections or other providers back", async () => {
    const locking = fakeLocking()
    const started: string[] = []
    const busy = request(locking, "pp_paylater_paylater", "pay_col_1")
    void oneStartAtATime(busy.req as never, busy.res as never, () => void started.push("col_1"))
    const other = request(locking, "pp_paylater_paylater", "pay_col_2")
    void oneStartAtATime(other.req as never, other.res as never, () => void started.push("col_2"))
    const system = request(locking, "pp_system_default", "pay_col_1")
    await oneStartAtATime(system.req as never, system.res as never, () => void started.push("system"))
    await new Promise((r) => setTimeout(r, 20))
    expect(started.sort()).toEqual(["col_1", "col_2", "system"])
    busy.res.end()
    other.res.end()
  })

  it("answers 503 with a message the storefront can show when the other start does not finish in time", async () => {
    jest.useFakeTimers()
    try {
      const locking = fakeLocking()
      const stuck = request(locking, "pp_paylater_paylater")
      void oneStartAtATime(stuck.req as never, stuck.res as never, () => undefined)
      const waiting = request(locking, "pp_paylater_paylater")
      const next = jest.fn()
      const done = oneStartAtATime(waiting.req as never, waiting.res as never, next)
      await jest.advanceTimersByTimeAsync(46_000)
      await done
      expect(next).not.toHaveBeenCalled()
      expect(waiting.res.statusCode).toBe(503)
      expect(waiting.res.body).toMatchObject({ code: START_BUSY_CODE, message: expect.stringContaining("could not be started") })
      stuck.res.end()
    } finally {
      jest.useRealTimers()
    }
  })
})

import { FifoLimiter } from "../fifo-limiter"

/** A task the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: (value: string) => void
  let fail!: (error: Error) => void
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  return {
    task: () => {
      log.push(`start ${name}`)
      return done
    },
    finish: () => finish(name),
    fail: (message: string) => fail(new Error(message)),
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe("FifoLimiter", () => {
  it("runs at most `limit` tasks at a time and starts the others in arrival order as slots free", async () => {
    const log: string[] = []
    const limiter = new FifoLimiter(2)
    const gates = ["a", "b", "c", "d", "e"].map((name) => gate(log, name))
    const results = gates.map((g) => limiter.run(g.task))
    await turn()
    expect(log).toEqual(["start a", "start b"])
    expect([limiter.running, limiter.waiting]).toEqual([2, 3])

    gates[1].finish()
    await turn()
    expect(log).toEqual(["start a", "start b", "start c"])
    gates[0].finish()
    await turn()
    expect(log).toEqual(["start a", "start b", "start c", "start d"])
    expect([limiter.running, limiter.waiting, limiter.completed]).toEqual([2, 1, 2])

    for (const g of gates.slice(2)) g.finish()
    await expect(Promise.all(results)).resolves.toEqual(["a", "b", "c", "d", "e"])
    expect([limiter.running, limiter.waiting, limiter.completed]).toEqual([0, 0, 5])
  })

  it("passes a task's failure to its caller and gives its slot to the next", async () => {
    const log: string[] = []
    const limiter = new FifoLimiter(1)
    const first = gate(log, "first")
    const second = gate(log, "second")
    const failed = limiter.run(first.task)
    const next = limiter.run(second.task)
    first.fail("database gone")
    await expect(failed).rejects.toThrow("database gone")
    await turn()
    expect(log).toEqual(["start first", "start second"])
    second.finish()
    await expect(next).resolves.toBe("second")
    expect(limiter.running).toBe(0)
  })

  it("drains a long burst completely, in order, never above the bound", async () => {
    const limiter = new FifoLimiter(3)
    const started: number[] = []
    let running = 0
    let highest = 0
    const all = Array.from({ length: 5000 }, (_, i) =>
      limiter.run(async () => {
        started.push(i)
        running++
        highest = Math.max(highest, running)
        await turn()
        running--
        return i
      })
    )
    const results = await Promise.all(all)
    expect(results).toEqual(Array.from({ length: 5000 }, (_, i) => i))
    expect(started).toEqual(results)
    expect(highest).toBe(3)
    expect([limiter.running, limiter.waiting, limiter.completed]).toEqual([0, 0, 5000])
  })

  it("gives the slot of a task that overruns its slot timeout to the next one, and says so", async () => {
    jest.useFakeTimers()
    try {
      const log: string[] = []
      const limiter = new FifoLimiter(1)
      const hung = gate(log, "hung")
      const after = gate(log, "after")
      const overruns: string[] = []
      const slow = limiter.run(hung.task, { slotTimeoutMs: 1000, onOverrun: () => overruns.push("hung") })
      const next = limiter.run(after.task)
      await Promise.resolve()
      expect(log).toEqual(["start hung"])
      jest.advanceTimersByTime(1000)
      await Promise.resolve()
      await Promise.resolve()
      expect(overruns).toEqual(["hung"])
      expect(log).toEqual(["start hung", "start after"])
      after.finish()
      hung.finish()
      await expect(next).resolves.toBe("after")
      await expect(slow).resolves.toBe("hung")
      expect([limiter.running, limiter.completed]).toEqual([0, 2])
    } finally {
      jest.useRealTimers()
    }
  })

  it("starts waiting tasks when the bound grows and lets it shrink as tasks finish", async () => {
    const log: string[] = []
    const limiter = new FifoLimiter(1)
    const gates = ["a", "b", "c", "d"].map((name) => gate(log, name))
    const results = gates.map((g) => limiter.run(g.task))
    await turn()
    limiter.setLimit(3)
    await turn()
    expect(log).toEqual(["start a", "start b", "start c"])
    limiter.setLimit(1)
    gates[0].finish()
    gates[1].finish()
    await turn()
    expect(log).toEqual(["start a", "start b", "start c"])
    gates[2].finish()
    await turn()
    expect(log).toEqual(["start a", "start b", "start c", "start d"])
    gates[3].finish()
    await expect(Promise.all(results)).resolves.toEqual(["a", "b", "c", "d"])
  })

  it("refuses a bound that is not a positive whole number", () => {
    expect(() => new FifoLimiter(0)).toThrow(RangeError)
    expect(() => new FifoLimiter(1.5)).toThrow(RangeError)
  })
})

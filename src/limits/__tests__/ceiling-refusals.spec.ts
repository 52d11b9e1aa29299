import { budgetCounter, type BudgetCounter } from "../counter"
import { ceilingRefusals, recordCeilingRefusal } from "../ceiling-refusals"

const memory = (): BudgetCounter => budgetCounter({ kind: "memory", prefix: `c${Math.random()}:` })

describe("the store-wide ceiling's refusals (Settings → PayLater, the log)", () => {
  it("counts refusals per hour and keeps the last one's time", async () => {
    const counter = memory()
    const at = (iso: string) => new Date(iso)
    await recordCeilingRefusal(counter, at("2026-11-26T09:10:00Z"))
    await recordCeilingRefusal(counter, at("2026-11-26T10:05:00Z"))
    await recordCeilingRefusal(counter, at("2026-11-26T10:40:30Z"))
    const seen = await ceilingRefusals(counter, at("2026-11-26T10:59:00Z"))
    expect(seen).toEqual({
      last_24h: 3,
      last_at: "2026-11-26T10:40:30.000Z",
      by_hour: [
        { hour: "2026-11-26T10:00:00.000Z", count: 2 },
        { hour: "2026-11-26T09:00:00.000Z", count: 1 },
      ],
    })
  })

  it("reads no refusal as none", async () => {
    expect(await ceilingRefusals(memory())).toEqual({ last_24h: 0, last_at: null, by_hour: [] })
  })

  it("leaves hours older than a day out", async () => {
    const counter = memory()
    await recordCeilingRefusal(counter, new Date("2026-11-25T08:00:00Z"))
    expect((await ceilingRefusals(counter, new Date("2026-11-26T10:00:00Z"))).last_24h).toBe(0)
  })

  it("says to warn for the first refusal of a minute only", async () => {
    const counter = memory()
    const firsts = []
    for (let i = 0; i < 50; i++) firsts.push(await recordCeilingRefusal(counter))
    expect(firsts.filter(Boolean)).toHaveLength(1)
    expect(firsts[0]).toBe(true)
  })

  it("never throws when the store fails: the refused start is answered anyway", async () => {
    const broken: BudgetCounter = {
      spend: () => Promise.reject(new Error("connect ECONNREFUSED")),
      giveBack: () => Promise.resolve(),
      peek: () => Promise.reject(new Error("connect ECONNREFUSED")),
      put: () => Promise.reject(new Error("connect ECONNREFUSED")),
    }
    await expect(recordCeilingRefusal(broken)).resolves.toBe(false)
  })
})

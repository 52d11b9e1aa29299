import { LIMIT_DEFAULTS, readLimitOptions, type LimitSettings } from "../../providers/paylater/limit-options"
import { budgetCounter, type BudgetCounter } from "../counter"
import { mobileBudgetName, spendPushBudget, spendStartBudgets } from "../payment-start"

const limits = (raw: Record<string, unknown> = {}): LimitSettings => {
  const problems: string[] = []
  const read = readLimitOptions(raw, problems)
  expect(problems).toEqual([])
  return read
}

const memory = (): BudgetCounter => budgetCounter({ kind: "memory", prefix: `t${Math.random()}:` })

describe("the budget counter (rate-limiter-flexible, memory store)", () => {
  it("lets max uses through per window and says when the next one frees", async () => {
    const counter = memory()
    const budget = { max: 3, windowSeconds: 600 }
    const results = []
    for (let i = 0; i < 4; i++) results.push(await counter.spend("k", budget))
    expect(results.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(results[3]).toMatchObject({ ok: false })
    const retry = (results[3] as { retryAfterSeconds: number }).retryAfterSeconds
    expect(retry).toBeGreaterThan(590)
    expect(retry).toBeLessThanOrEqual(600)
    expect(await counter.spend("other", budget)).toEqual({ ok: true })
  })

  it("lets exactly max uses through when many race", async () => {
    const counter = memory()
    const results = await Promise.all(Array.from({ length: 30 }, () => counter.spend("race", { max: 7, windowSeconds: 60 })))
    expect(results.filter((r) => r.ok)).toHaveLength(7)
  })

  it("takes a use given back", async () => {
    const counter = memory()
    const budget = { max: 1, windowSeconds: 60 }
    expect((await counter.spend("g", budget)).ok).toBe(true)
    await counter.giveBack("g", budget)
    expect((await counter.spend("g", budget)).ok).toBe(true)
    expect((await counter.spend("g", budget)).ok).toBe(false)
  })
})

describe("a start's budgets", () => {
  const start = (client: string, collection: string, requestToPay = true) => ({ requestToPay, paymentCollectionId: collection, client })

  it("the client's budget refuses its 21st start in 10 minutes, from any cart; another client is served", async () => {
    const counter = memory()
    const settings = limits()
    for (let i = 0; i < LIMIT_DEFAULTS.startsPerClient.max; i++) {
      expect(await spendStartBudgets(counter, settings, start("203.0.113.7", `pay_col_${i}`, i % 2 === 0))).toEqual({ allowed: true })
    }
    const refused = await spendStartBudgets(counter, settings, start("203.0.113.7", "pay_col_new"))
    expect(refused).toMatchObject({ allowed: false, spent: "client", budget: { max: 20, windowSeconds: 600 } })
    expect(await spendStartBudgets(counter, settings, start("203.0.113.8", "pay_col_new"))).toEqual({ allowed: true })
  })

  it("the store-wide ceiling refuses every client once reached", async () => {
    const counter = memory()
    const settings = limits({ startLimitPerMinute: 5 })
    for (let i = 0; i < 5; i++) expect((await spendStartBudgets(counter, settings, start(`198.51.100.${i}`, `c${i}`))).allowed).toBe(true)
    expect(await spendStartBudgets(counter, settings, start("198.51.100.99", "c99"))).toMatchObject({ allowed: false, spent: "store" })
  })

  it("a start refused for its cart spends neither its client's nor the store's budget", async () => {
    const counter = memory()
    const settings = limits({ requestToPayLimitPerCart: 1, startLimitPerClient: 2, startLimitPerMinute: 2 })
    expect((await spendStartBudgets(counter, settings, start("192.0.2.1", "cart_a"))).allowed).toBe(true)
    for (let i = 0; i < 5; i++) {
      expect(await spendStartBudgets(counter, settings, start("192.0.2.1", "cart_a"))).toMatchObject({ allowed: false, spent: "cart" })
    }
    expect((await spendStartBudgets(counter, settings, start("192.0.2.1", "cart_b"))).allowed).toBe(true)
  })

  it("links and Requests to Pay have separate cart budgets", async () => {
    const counter = memory()
    const settings = limits({ requestToPayLimitPerCart: 1, paymentLinkLimitPerCart: 1 })
    expect((await spendStartBudgets(counter, settings, start("192.0.2.2", "cart_x", true))).allowed).toBe(true)
    expect((await spendStartBudgets(counter, settings, start("192.0.2.2", "cart_x", false))).allowed).toBe(true)
    expect(await spendStartBudgets(counter, settings, start("192.0.2.2", "cart_x", false))).toMatchObject({ spent: "cart", budget: { max: 1 } })
  })

  it("a store failure gives back what was taken and is thrown", async () => {
    const inner = memory()
    let calls = 0
    const flaky: BudgetCounter = {
      spend: async (key, budget) => {
        if (++calls === 2) throw new Error("connect ECONNREFUSED 127.0.0.1:6379")
        return inner.spend(key, budget)
      },
      giveBack: (key, budget) => inner.giveBack(key, budget),
      peek: (key, budget) => inner.peek(key, budget),
      put: (key, value, budget) => inner.put(key, value, budget),
    }
    const settings = limits({ startLimitPerClient: 1 })
    await expect(spendStartBudgets(flaky, settings, start("192.0.2.3", "c"))).rejects.toThrow(/ECONNREFUSED/)
    // The client's use taken before the failure was given back.
    expect((await spendStartBudgets(flaky, settings, start("192.0.2.3", "c"))).allowed).toBe(true)
  })
})

describe("a number's push budget", () => {
  it("refuses the 4th push to one number in 10 minutes, with the time left", async () => {
    const counter = memory()
    const settings = limits()
    const verdicts = []
    for (let i = 0; i < 4; i++) verdicts.push(await spendPushBudget(counter, settings, "97451118021", "secret"))
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false])
    expect(verdicts[3]).toMatchObject({ spent: "mobile", budget: { max: 3, windowSeconds: 600 } })
    expect((await spendPushBudget(counter, settings, "97451118022", "secret")).allowed).toBe(true)
  })

  it("names a number only by a keyed digest", () => {
    const name = mobileBudgetName("97451118021", "secret")
    expect(name).not.toContain("51118021")
    expect(name).toBe(mobileBudgetName("97451118021", "secret"))
    expect(name).not.toBe(mobileBudgetName("97451118021", "another secret"))
  })
})

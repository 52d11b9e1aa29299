import { InMemoryLockingProvider } from "@medusajs/locking/dist/providers/in-memory"
import { resolveProviderOptions } from "../../providers/paylater/options"
import { OPTIONS } from "../../providers/paylater/__tests__/fake-api"
import { mobileBudgetName, spendPaymentStartBudget } from "../payment-start"
import { giveBack, takeSlot, type SlotLocking } from "../slots"

const budget = { max: 3, windowSeconds: 600 }
const locking = () => new InMemoryLockingProvider() as unknown as SlotLocking

describe("takeSlot on Medusa's in-memory locking provider", () => {
  afterEach(() => jest.useRealTimers())

  it("allows max uses per window, then none until the window has passed", async () => {
    jest.useFakeTimers({ now: new Date("2026-11-24T10:00:00Z"), doNotFake: ["nextTick", "setImmediate"] })
    const lock = locking()
    const uses = []
    for (let i = 0; i < 4; i++) uses.push(await takeSlot(lock, "mobile:a", budget))
    expect(uses.map(Boolean)).toEqual([true, true, true, false])

    jest.setSystemTime(new Date("2026-11-24T10:09:59Z"))
    expect(await takeSlot(lock, "mobile:a", budget)).toBeNull()
    jest.setSystemTime(new Date("2026-11-24T10:10:01Z"))
    expect(await takeSlot(lock, "mobile:a", budget)).not.toBeNull()
  })

  it("keeps budgets apart by name", async () => {
    const lock = locking()
    for (let i = 0; i < 3; i++) await takeSlot(lock, "mobile:a", budget)
    expect(await takeSlot(lock, "mobile:a", budget)).toBeNull()
    expect(await takeSlot(lock, "mobile:b", budget)).not.toBeNull()
  })

  it("never lets more than max through when requests race", async () => {
    const lock = locking()
    const results = await Promise.all(Array.from({ length: 20 }, () => takeSlot(lock, "cart:x", budget)))
    expect(results.filter(Boolean)).toHaveLength(3)
  })

  it("gives a use back", async () => {
    const lock = locking()
    const taken = [await takeSlot(lock, "cart:x", budget), await takeSlot(lock, "cart:x", budget), await takeSlot(lock, "cart:x", budget)]
    await giveBack(lock, taken[1]!)
    expect(await takeSlot(lock, "cart:x", budget)).not.toBeNull()
    expect(await takeSlot(lock, "cart:x", budget)).toBeNull()
  })

  it("passes on a failure that is not 'held' (e.g. Redis down) instead of counting it as used", async () => {
    const broken: SlotLocking = {
      acquire: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:6379")
      },
      release: async () => true,
    }
    await expect(takeSlot(broken, "cart:x", budget)).rejects.toThrow(/ECONNREFUSED/)
  })
})

describe("the budgets a payment start spends", () => {
  const options = resolveProviderOptions(OPTIONS)
  const rtp = (collection: string, mobile: string) => ({
    providerId: "pp_paylater-rtp_paylater",
    paymentCollectionId: collection,
    data: { mobile_number: mobile, email: "noor@example.qa" },
  })

  it("a number's 4th Request to Pay within 10 minutes is refused, whichever carts it comes from", async () => {
    const lock = locking()
    const verdicts = []
    for (const cart of ["pay_col_1", "pay_col_2", "pay_col_3", "pay_col_4"]) {
      verdicts.push(await spendPaymentStartBudget(lock, options, rtp(cart, "5111 8021")))
    }
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false])
    expect(verdicts[3]).toMatchObject({ spent: "mobile", budget: { max: 3, windowSeconds: 600 } })
    // "+974 5111 8021" is the same number.
    expect(await spendPaymentStartBudget(lock, options, rtp("pay_col_5", "+974 5111 8021"))).toMatchObject({ allowed: false })
  })

  it("a cart's 6th Request to Pay within the hour is refused, across numbers", async () => {
    const lock = locking()
    const numbers = ["33000001", "33000002", "33000003", "33000004", "33000005", "33000006"]
    const verdicts = []
    for (const n of numbers) verdicts.push(await spendPaymentStartBudget(lock, options, rtp("pay_col_1", n)))
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, true, true, false])
    expect(verdicts[5]).toMatchObject({ spent: "cart" })
  })

  it("a refusal for the number does not spend the cart's budget", async () => {
    const lock = locking()
    for (const cart of ["a", "b", "c"]) await spendPaymentStartBudget(lock, options, rtp(cart, "33000009"))
    for (let i = 0; i < 10; i++) expect((await spendPaymentStartBudget(lock, options, rtp("d", "33000009"))).allowed).toBe(false)
    const others = []
    for (const n of ["33000011", "33000012", "33000013", "33000014", "33000015"]) others.push(await spendPaymentStartBudget(lock, options, rtp("d", n)))
    expect(others.every((v) => v.allowed)).toBe(true)
  })

  it("payment links: 10 per cart per hour, and the number counts only when a look-up is made for links", async () => {
    const lock = locking()
    const link = (collection: string) => ({ providerId: "pp_paylater_paylater", paymentCollectionId: collection, data: { mobile_number: "33000020", email: "a@b.qa" } })
    const verdicts = []
    for (let i = 0; i < 11; i++) verdicts.push(await spendPaymentStartBudget(lock, options, link("pay_col_l")))
    expect(verdicts.map((v) => v.allowed)).toEqual([...Array(10).fill(true), false])

    const all = resolveProviderOptions({ ...OPTIONS, eligibilityCheck: "all" })
    const lock2 = locking()
    const withLookUp = []
    for (const cart of ["l1", "l2", "l3", "l4"]) withLookUp.push(await spendPaymentStartBudget(lock2, all, link(cart)))
    expect(withLookUp.map((v) => v.allowed)).toEqual([true, true, true, false])
  })

  it("follows the merchant's options", async () => {
    const strict = resolveProviderOptions({ ...OPTIONS, requestToPayLimitPerMobile: "1", requestToPayLimitPerMobileMinutes: 5 })
    expect(strict.limits.requestToPayPerMobile).toEqual({ max: 1, windowSeconds: 300 })
    const lock = locking()
    expect((await spendPaymentStartBudget(lock, strict, rtp("a", "33000030"))).allowed).toBe(true)
    expect((await spendPaymentStartBudget(lock, strict, rtp("b", "33000030"))).allowed).toBe(false)
    expect(() => resolveProviderOptions({ ...OPTIONS, paymentLinkLimitPerCart: 0, requestToPayLimitPerCartMinutes: "x" })).toThrow(
      /requestToPayLimitPerCartMinutes must be a whole number between 1 and 1440.*paymentLinkLimitPerCart must be a whole number between 1 and 100/
    )
  })

  it("a locking failure on the number's budget passes on and gives the cart's use back", async () => {
    const inner = locking()
    let failing = true
    const flaky: SlotLocking = {
      acquire: async (keys, args) => {
        if (failing && String(keys).includes(":mobile:")) throw new Error("connect ECONNREFUSED 127.0.0.1:6379")
        return inner.acquire(keys, args)
      },
      release: (keys, args) => inner.release(keys, args),
    }
    for (const n of ["33000041", "33000042", "33000043", "33000044", "33000045"]) {
      await expect(spendPaymentStartBudget(flaky, options, rtp("pay_col_f", n))).rejects.toThrow(/ECONNREFUSED/)
    }
    failing = false
    expect((await spendPaymentStartBudget(flaky, options, rtp("pay_col_f", "33000046"))).allowed).toBe(true)
  })

  it("keeps no readable number in the lock keys", () => {
    const name = mobileBudgetName("97451118021", OPTIONS.webhookSecret)
    expect(name).toMatch(/^mobile:[0-9a-f]{32}$/)
    expect(name).not.toContain("51118021")
    expect(mobileBudgetName("97451118021", "another secret")).not.toBe(name)
  })
})

import axios, { type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from "axios"
import { PayLaterClient } from "../client"
import { parsePayLaterConfig } from "../config"
import { TOKEN_PATH } from "../token"
import { repeatedCallWorstCaseMs, sentOnceStaleAfterMs, sentOnceWorstCaseMs } from "../worst-case"
import { OPTIONS, tokenAnswer } from "./support/paylater-nock"

/**
 * Drives the real client through the longest refund it can make, on a virtual clock: every
 * exchange uses up its whole timeout, every token fetch fails until its last attempt, PayLater
 * refuses the first token, and the jitter is always at its largest. The time it takes must be the
 * worst case worst-case.ts computes: if the client gains a retry, a longer backoff or another
 * refresh, this fails until the computation (and so the refund guard's limit) follows.
 */

type Answer = { status: number; body: unknown } | "timeout"

function virtualPayLater(clock: { now: number }, timeoutMs: number, script: (path: string, nth: number) => Answer) {
  const seen = new Map<string, number>()
  const log: string[] = []
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const path = new URL(config.url!).pathname
    const key = path === TOKEN_PATH ? "token" : path.split("/").pop()!
    const nth = (seen.get(key) ?? 0) + 1
    seen.set(key, nth)
    // Each exchange takes as long as it may: an answer in its last millisecond, or none at all.
    clock.now += timeoutMs
    const answer = script(key, nth)
    log.push(`${key}#${nth}:${answer === "timeout" ? "timeout" : answer.status}`)
    if (answer === "timeout") {
      throw Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded`), { code: "ECONNABORTED" })
    }
    return { data: JSON.stringify(answer.body), status: answer.status, statusText: "", headers: {}, config } as AxiosResponse
  }
  return { http: axios.create({ adapter }), log }
}

function slowestRefund(maxAttempts: number, timeoutMs: number) {
  const clock = { now: 0 }
  const { http, log } = virtualPayLater(clock, timeoutMs, (key, nth) => {
    if (key === "token") {
      // Two fetches (before the call, after the refused token), each failing until its last attempt.
      const withinFetch = ((nth - 1) % maxAttempts) + 1
      return withinFetch < maxAttempts ? "timeout" : { status: 200, body: tokenAnswer(`token-${nth}`) }
    }
    return nth === 1
      ? { status: 401, body: { error: "invalid_token" } }
      : { status: 200, body: { message: "Refund request accepted for reference Id: payses_w" } }
  })
  const client = new PayLaterClient(
    { ...OPTIONS, timeoutMs, maxAttempts },
    {
      http,
      now: () => clock.now,
      sleep: async (ms) => {
        clock.now += ms
      },
      random: () => 1 - Number.EPSILON,
    }
  )
  return { client, clock, log }
}

describe("the refund guard's staleness limit follows the client's worst case", () => {
  it.each([
    [1, 1000],
    [3, 15000],
    [5, 2500],
  ])("maxAttempts %i, timeoutMs %i: the slowest refund takes exactly the computed worst case", async (maxAttempts, timeoutMs) => {
    const { client, clock, log } = slowestRefund(maxAttempts, timeoutMs)

    await expect(client.refund({ orderId: "payses_w", amount: "10.00" })).resolves.toEqual({
      message: "Refund request accepted for reference Id: payses_w",
    })

    expect(log.filter((l) => l.startsWith("token"))).toHaveLength(2 * maxAttempts)
    expect(log.filter((l) => l.startsWith("refund"))).toEqual(["refund#1:401", "refund#2:200"])
    expect(clock.now).toBe(sentOnceWorstCaseMs({ maxAttempts, timeoutMs }))
  })

  it("leaves room for the bookkeeping around the call, and grows with the client's settings", () => {
    const defaults = parsePayLaterConfig(OPTIONS)
    expect(defaults).toMatchObject({ timeoutMs: 15000, maxAttempts: 3 })
    // 2 × (3 × 15 s + 349 ms + 599 ms backoff + 15 s) = 121.896 s, + 60 s.
    expect(sentOnceStaleAfterMs(defaults)).toBe(181_896)
    // The limit it replaces (4 × timeout + 60 s = 120 s) was shorter than the client's own worst case.
    expect(sentOnceWorstCaseMs(defaults)).toBeGreaterThan(4 * defaults.timeoutMs)
    expect(sentOnceStaleAfterMs({ ...defaults, maxAttempts: 4 })).toBeGreaterThan(sentOnceStaleAfterMs(defaults))
  })
})

describe("a repeated call's worst case (the status read a lost Request to Pay start makes) bounds the client", () => {
  it.each([
    [1, 1000],
    [3, 15000],
    [5, 2500],
  ])("maxAttempts %i, timeoutMs %i: the slowest status read that gives up takes no longer than the computed worst case", async (maxAttempts, timeoutMs) => {
    const clock = { now: 0 }
    const { http, log } = virtualPayLater(clock, timeoutMs, (key, nth) => {
      if (key === "token") {
        const withinFetch = ((nth - 1) % maxAttempts) + 1
        return withinFetch < maxAttempts ? "timeout" : { status: 200, body: tokenAnswer(`token-${nth}`) }
      }
      // Every attempt: the token refused, then no answer at all.
      return nth % 2 === 1 ? { status: 401, body: { error: "invalid_token" } } : "timeout"
    })
    const client = new PayLaterClient(
      { ...OPTIONS, timeoutMs, maxAttempts },
      { http, now: () => clock.now, sleep: async (ms) => void (clock.now += ms), random: () => 1 - Number.EPSILON }
    )

    await expect(client.getPaymentStatus("payses_w")).rejects.toMatchObject({ code: "TIMEOUT" })

    expect(log.filter((l) => !l.startsWith("token"))).toHaveLength(2 * maxAttempts)
    // Two status exchanges and a slow token fetch per attempt at least: the scenario is a long one.
    expect(clock.now).toBeGreaterThan(maxAttempts * 3 * timeoutMs)
    expect(clock.now).toBeLessThanOrEqual(repeatedCallWorstCaseMs({ maxAttempts, timeoutMs }))
  })
})

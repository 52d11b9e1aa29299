import type { AxiosInstance } from "axios"
import { inspect } from "node:util"
import { type HttpRequest, type PayLaterOperation, sendRequest } from "../http"

/** Transport classification with a fake axios instance: every failure code, every operation kind. */

function failingHttp(code: string, message = `fake ${code}`) {
  const calls: unknown[] = []
  const http = {
    request: async (config: unknown) => {
      calls.push(config)
      // Like a real AxiosError, the failure carries the request config, secrets included.
      throw Object.assign(new Error(message), { code, config })
    },
  } as unknown as AxiosInstance
  return { http, calls }
}

function request(operation: PayLaterOperation): HttpRequest {
  return {
    operation,
    method: "POST",
    url: "https://connect.uat.paylaterapp.com/x",
    headers: { Authorization: "Bearer SECRET-TOKEN" },
    body: "client_secret=SECRET-VALUE",
    timeoutMs: 1000,
  }
}

async function failure(code: string, operation: PayLaterOperation) {
  try {
    await sendRequest(failingHttp(code).http, request(operation), () => 0)
  } catch (error) {
    return error as { code: string; retryable: boolean; details: Record<string, unknown> }
  }
  throw new Error("expected a failure")
}

describe("sendRequest failures", () => {
  it.each([
    ["ECONNABORTED", "getPaymentStatus", "TIMEOUT", true, false],
    ["ETIMEDOUT", "getPaymentStatus", "TIMEOUT", true, false],
    ["ETIMEDOUT", "createPaymentLink", "TIMEOUT", false, true],
    ["ETIMEDOUT", "refund", "TIMEOUT", false, true],
    ["ECONNREFUSED", "refund", "NETWORK", true, false],
    ["ENOTFOUND", "createPaymentLink", "NETWORK", true, false],
    ["EAI_AGAIN", "requestToPay", "NETWORK", true, false],
    ["ECONNRESET", "requestToPay", "NETWORK", false, true],
    ["ECONNRESET", "refund", "NETWORK", false, true],
    ["ECONNRESET", "lookupShopper", "NETWORK", true, false],
    ["EPIPE", "token", "NETWORK", true, false],
    ["", "getPaymentStatus", "NETWORK", true, false],
    ["ERR_BAD_RESPONSE", "getPaymentStatus", "UNEXPECTED_RESPONSE", false, false],
  ] as const)("%s on %s → %s (retryable %s, outcome unknown %s)", async (code, operation, expected, retryable, unknown) => {
    const error = await failure(code, operation)

    expect(error.code).toBe(expected)
    expect(error.retryable).toBe(retryable)
    expect(error.details).toMatchObject({ operation, outcomeUnknown: unknown })
  })

  it("never keeps the axios error (its config holds the token and the secret)", async () => {
    const error = await failure("ECONNRESET", "token")
    const text = inspect(error, { depth: 10, showHidden: true })

    expect(text).not.toContain("SECRET-TOKEN")
    expect(text).not.toContain("SECRET-VALUE")
  })

  it("sends timeout, validateStatus and raw-text options on every request", async () => {
    const seen: Array<Record<string, unknown>> = []
    const http = {
      request: async (config: Record<string, unknown>) => {
        seen.push(config)
        return { status: 418, data: "<teapot/>" }
      },
    } as unknown as AxiosInstance

    const answer = await sendRequest(http, request("getPaymentStatus"), () => 0)

    expect(answer).toEqual({ status: 418, text: "<teapot/>", durationMs: 0 })
    const config = seen[0]
    expect(config.timeout).toBe(1000)
    expect((config.validateStatus as (s: number) => boolean)(500)).toBe(true)
    expect((config.transformResponse as Array<(d: unknown) => unknown>)[0]('{"a":1}')).toBe('{"a":1}')
    expect(config.maxRedirects).toBe(0)
    expect(config.signal).toBeInstanceOf(AbortSignal)
  })

  it("turns a missing body into empty text", async () => {
    const http = { request: async () => ({ status: 204, data: undefined }) } as unknown as AxiosInstance
    await expect(sendRequest(http, request("refund"), () => 0)).resolves.toMatchObject({ status: 204, text: "" })
  })
})

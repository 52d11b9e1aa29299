import http from "node:http"
import type { AddressInfo } from "node:net"
import axios, { type AxiosInstance } from "axios"
import { API_BASE_PATH, TOKEN_PATH, startSandbox, type PayLaterSandbox, type SandboxOptions } from ".."

export const OUTLET = 1000000061
export const SHOPPER = "97451118021"
export const MINUTE = 60_000

/** A fresh connection per call: no pooled socket outlives a test, and stop() is observable. */
const agent = new http.Agent({ keepAlive: false })

export function client(baseURL: string): AxiosInstance {
  return axios.create({
    baseURL,
    httpAgent: agent,
    validateStatus: () => true,
    maxRedirects: 0,
    // Keep the raw text so non-JSON answers (fault "garbage", pages) can be asserted as they came.
    transformResponse: [(data: string) => {
      try {
        return JSON.parse(data)
      } catch {
        return data
      }
    }],
  })
}

export interface Harness {
  sandbox: PayLaterSandbox
  http: AxiosInstance
  token(): Promise<string>
  api(): Promise<AxiosInstance>
}

export async function harness(opts: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox(opts)
  const h = client(sandbox.url)
  const token = async () => {
    const res = await h.post(
      TOKEN_PATH,
      new URLSearchParams({
        grant_type: "client_credentials",
        client_id: sandbox.options.clientId,
        client_secret: sandbox.options.clientSecret,
      }).toString(),
      { headers: { "content-type": "application/x-www-form-urlencoded" } }
    )
    if (res.status !== 200) throw new Error(`token call answered ${res.status}`)
    return res.data.access_token as string
  }
  return {
    sandbox,
    http: h,
    token,
    async api() {
      const t = await token()
      const c = client(`${sandbox.url}${API_BASE_PATH}`)
      c.defaults.headers.common.authorization = `Bearer ${t}`
      return c
    },
  }
}

export function linkBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    outlet_id: OUTLET,
    currency: "QAR",
    amount: 1000,
    order_id: `ord-${Math.random().toString(36).slice(2, 10)}`,
    success_redirect_url: "http://shop.test/ok",
    fail_redirect_url: "http://shop.test/fail",
    expiry_duration: 30,
    ...overrides,
  }
}

export function rtpBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    outlet_id: OUTLET,
    mobile_number: SHOPPER,
    order_amount: 450.5,
    merchant_order_reference: `rtp-${Math.random().toString(36).slice(2, 10)}`,
    expiry_minutes: 15,
    ...overrides,
  }
}

/** Splits a paymentLinkUrl into what the page routes need. */
export function linkParts(paymentLinkUrl: string): { path: string; token: string; channel: string; query: string } {
  const u = new URL(paymentLinkUrl)
  return {
    path: u.pathname,
    token: u.searchParams.get("token") ?? "",
    channel: u.searchParams.get("channel") ?? "",
    query: u.search,
  }
}

export interface Received {
  body: Record<string, unknown>
  headers: http.IncomingHttpHeaders
}

export interface Receiver {
  url: string
  received: Received[]
  /** Decides the answer to each notification (default 200). Return "hang" to never answer. */
  respond: (r: Received, index: number) => number | "hang"
  close(): Promise<void>
}

/** A merchant webhook endpoint: records what arrives and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const sockets = new Set<import("node:net").Socket>()
  const receiver: Receiver = {
    url: "",
    received: [],
    respond: () => 200,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const r: Received = { body: JSON.parse(Buffer.concat(chunks).toString("utf8")), headers: req.headers }
      receiver.received.push(r)
      const answer = receiver.respond(r, receiver.received.length - 1)
      if (answer === "hang") return
      res.writeHead(answer, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: answer < 300 ? "Webhook received successfully" : "Invalid signature" }))
    })
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/paylater`
  return receiver
}

/**
 * Moves the virtual clock WITHOUT the sweep that advanceClock() runs, so a test can prove that an
 * expiry is noticed lazily (on access) or by the periodic timer alone. Reaches into the instance on
 * purpose: no public API should offer a way to skip the sweep.
 */
export function shiftClockQuietly(sandbox: PayLaterSandbox, ms: number): void {
  ;(sandbox as unknown as { ctx: { clock: { advance(ms: number): void } } }).ctx.clock.advance(ms)
}

/** Polls a condition that no sandbox record covers (e.g. what a receiver saw). */
export async function until(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

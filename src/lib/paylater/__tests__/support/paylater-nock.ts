import nock from "nock"
import { PayLaterClient, type PayLaterClientDeps } from "../../client"
import type { PayLaterConfigInput, PayLaterLogger } from "../../types"

/** Shared fixtures for the client specs: a nock'ed PayLater, a captured logger, a fake clock. */

export const BASE = "https://connect.uat.paylaterapp.com"
export const WEB_CHECKOUT = "/api/paylater/merchant-portal/v2/web-checkout"
export const TOKEN = "/auth/realms/api/protocol/openid-connect/token"
export const CLIENT_SECRET = "cs_very-secret-client-value"
export const ACCESS_TOKEN = "eyJhbGciOi.access-token-one"

export const OPTIONS: PayLaterConfigInput = {
  clientId: "merchant-138",
  clientSecret: CLIENT_SECRET,
  outletId: 1000000061,
  webhookSecret: "whsec_unit",
}

export interface Captured {
  method: string
  path: string
  headers: Record<string, unknown>
  body: string
}

export interface Harness {
  client: PayLaterClient
  logs: string[]
  sleeps: number[]
  clock: { now: number }
}

export function capturingLogger(lines: string[]): PayLaterLogger {
  return {
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  }
}

export function makeClient(
  overrides: Partial<PayLaterConfigInput> = {},
  deps: PayLaterClientDeps = {}
): Harness {
  const logs: string[] = []
  const sleeps: number[] = []
  const clock = { now: 1_700_000_000_000 }
  const client = new PayLaterClient(
    { ...OPTIONS, ...overrides },
    {
      logger: capturingLogger(logs),
      now: () => clock.now,
      sleep: async (ms) => {
        sleeps.push(ms)
      },
      random: () => 0.5,
      ...deps,
    }
  )
  return { client, logs, sleeps, clock }
}

/** Every request a scope answered, with its raw body text as it crossed the wire. */
export function capture(scope: nock.Scope): Captured[] {
  const seen: Captured[] = []
  scope.on("request", (req: { method: string; path: string; headers: Record<string, unknown> }, _i: unknown, body: string) => {
    seen.push({ method: req.method, path: req.path, headers: req.headers, body })
  })
  return seen
}

export function tokenAnswer(accessToken = ACCESS_TOKEN, expiresIn = 300) {
  return {
    access_token: accessToken,
    expires_in: expiresIn,
    refresh_expires_in: 1800,
    refresh_token: "refresh-token-value",
    token_type: "Bearer",
    "not-before-policy": 0,
    session_state: "0b0f",
    scope: "profile email",
  }
}

/**
 * Hooks for a spec file that talks to a nock'ed PayLater. Jest gives each file its own nock module
 * while Node's http is shared, so each file must unpatch http when done or the next file's
 * interceptors run stacked on top of stale ones. Local sockets (localServer) stay reachable.
 */
export function useNock(): void {
  beforeAll(() => {
    if (!nock.isActive()) {
      nock.activate()
    }
    nock.disableNetConnect()
    nock.enableNetConnect("127.0.0.1")
  })
  afterEach(() => {
    nock.abortPendingRequests()
    nock.cleanAll()
  })
  afterAll(() => {
    nock.enableNetConnect()
    nock.restore()
  })
}

export function paylater(): nock.Scope {
  return nock(BASE)
}

/** Counts every request that reached no interceptor (nock refuses real connections here). */
export function unmatchedRequests(): { count: number; stop: () => void } {
  const state = { count: 0, stop: () => {} }
  const listener = () => {
    state.count++
  }
  nock.emitter.on("no match", listener)
  state.stop = () => nock.emitter.removeListener("no match", listener)
  return state
}

export async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected the promise to reject")
}

/**
 * A real local HTTP server, for failures nock can only imitate (a socket reset mid-request).
 * `handle` returns false to destroy the connection without answering.
 */
export async function localServer(
  handle: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean
): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const http = await import("node:http")
  const hits: string[] = []
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    req.resume()
    req.on("end", () => {
      if (!handle(req, res)) {
        req.socket.destroy()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as import("node:net").AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A local port nothing listens on: connecting to it is refused by the operating system. */
export async function closedPort(): Promise<string> {
  const net = await import("node:net")
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as import("node:net").AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

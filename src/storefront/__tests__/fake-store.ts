import http from "node:http"
import type { AddressInfo } from "node:net"
import Medusa from "@medusajs/js-sdk"

/**
 * A tiny HTTP server answering like a Medusa store, so the kit is tested through the real
 * `@medusajs/js-sdk` (its FetchError, query encoding, publishable key header) and real fetch.
 */

export interface Seen {
  method: string
  path: string
  query: Record<string, string>
  body: any
  headers: http.IncomingHttpHeaders
}

export type Answer = { status: number; body?: unknown; delayMs?: number; raw?: string; contentType?: string } | "drop"
export type Handler = (seen: Seen) => Answer

export interface FakeStore {
  sdk: Medusa
  url: string
  seen: Seen[]
  /** Handlers by "METHOD /path" (exact) or "METHOD /prefix*"; answered in order for repeated calls. */
  on(route: string, ...answers: Array<Answer | Handler>): void
  close(): Promise<void>
}

export async function startFakeStore(): Promise<FakeStore> {
  const routes = new Map<string, Array<Answer | Handler>>()
  const seen: Seen[] = []
  const sockets = new Set<import("node:net").Socket>()
  const server = http.createServer((req, res) => {
    let raw = ""
    req.on("data", (c: Buffer) => (raw += c.toString()))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://store")
      const entry: Seen = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: raw ? JSON.parse(raw) : undefined,
        headers: req.headers,
      }
      seen.push(entry)
      const key = [...routes.keys()].find((k) => {
        const [method, path] = k.split(" ")
        return method === entry.method && (path.endsWith("*") ? entry.path.startsWith(path.slice(0, -1)) : path === entry.path)
      })
      const queue = key ? routes.get(key)! : []
      const next = queue.length > 1 ? queue.shift()! : queue[0]
      const answer = typeof next === "function" ? next(entry) : next ?? { status: 404, body: { type: "not_found", message: "Not found" } }
      if (answer === "drop") {
        req.socket.destroy()
        return
      }
      setTimeout(() => {
        res.writeHead(answer.status, { "content-type": answer.contentType ?? "application/json" })
        res.end(answer.raw ?? JSON.stringify(answer.body ?? {}))
      }, answer.delayMs ?? 0)
    })
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    sdk: new Medusa({ baseUrl, publishableKey: "pk_test" }),
    url: baseUrl,
    seen,
    on: (route, ...answers) => routes.set(route, answers),
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/* Answers the kit's tests give again and again. */

export const RTP_STATE_ROUTE = "GET /store/paylater/payment-sessions/payses_1"

export function waiting(secondsLeft: number): Answer {
  return { status: 200, body: { status: "waiting", seconds_left: secondsLeft, expires_at: null } }
}

/** A payment collection holding one session, as the session-creation route answers. */
export function collectionWith(session: { id: string; provider_id: string; data: Record<string, unknown> }, delayMs = 0): Answer {
  return { status: 200, body: { payment_collection: { id: "paycol_1", payment_sessions: [session] } }, delayMs }
}

/** A cart whose PayLater link session has `status` and `data` (for the pending page). */
export function cartWithLinkSession(cartId: string, status: string, data: Record<string, unknown> = {}): Answer {
  return {
    status: 200,
    body: { cart: { id: cartId, payment_collection: { payment_sessions: [{ id: "payses_1", provider_id: "pp_paylater_paylater", status, data }] } } },
  }
}

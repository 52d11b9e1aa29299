/**
 * Tools for "nothing secret leaks" tests:
 * - `captureOutput()` records everything written through Medusa's logger, `console`, and
 *   process.stdout / process.stderr (objects are inspected deeply, so an error carrying request
 *   headers is seen whole);
 * - `startTokenTap()` is a pass-through HTTP proxy in front of the PayLater sandbox that remembers
 *   every bearer token the sandbox issued and every Authorization header the app sent;
 * - `findLeaks()` says which secret appears in a text;
 * - `databaseRowsContaining()` scans every table of the app's database.
 */
import http from "node:http"
import type { Socket } from "node:net"
import { inspect } from "node:util"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

const LEVELS = ["log", "info", "warn", "error", "debug", "http", "verbose", "silly", "panic", "progress", "success", "failure", "activity"]

function render(args: unknown[]): string {
  return args
    .map((a) =>
      typeof a === "string"
        ? a
        : inspect(a, { depth: 8, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, getters: false })
    )
    .join(" ")
}

export interface OutputCapture {
  lines(): string[]
  /** Patches one more logger-like object (e.g. the container's logger, if it is another one). */
  patch(target: object, label: string): void
  restore(): void
}

export function captureOutput(targets: Array<[object, string]>): OutputCapture {
  const lines: string[] = []
  const undo: Array<() => void> = []
  const patched = new Set<object>()

  const patch = (target: object, label: string) => {
    if (patched.has(target)) return
    patched.add(target)
    const t = target as Record<string, unknown>
    for (const level of LEVELS) {
      const original = t[level]
      if (typeof original !== "function") continue
      const own = Object.prototype.hasOwnProperty.call(t, level)
      t[level] = function (this: unknown, ...args: unknown[]) {
        lines.push(`[${label}.${level}] ${render(args)}`)
        return (original as (...a: unknown[]) => unknown).apply(this ?? target, args)
      }
      undo.push(() => {
        if (own) t[level] = original
        else delete t[level]
      })
    }
  }
  for (const [target, label] of targets) patch(target, label)

  for (const [stream, label] of [
    [process.stdout, "stdout"],
    [process.stderr, "stderr"],
  ] as const) {
    const write = stream.write
    stream.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      lines.push(`[${label}] ${Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk)}`)
      return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest)
    } as typeof stream.write
    undo.push(() => {
      stream.write = write
    })
  }

  return {
    lines: () => [...lines],
    patch,
    restore() {
      for (const u of undo.reverse()) u()
      undo.length = 0
    },
  }
}

export interface TokenTap {
  url: string
  /** access and refresh tokens from every token response that went through. */
  tokens(): string[]
  /** Every distinct Authorization header value the app sent, and the credential inside it. */
  authorizations(): string[]
  stop(): Promise<void>
}

/** A pass-through proxy to `target` that notes the credentials crossing it. */
export async function startTokenTap(target: string): Promise<TokenTap> {
  const upstream = new URL(target)
  const tokens = new Set<string>()
  const authorizations = new Set<string>()
  const sockets = new Set<Socket>()

  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization
    if (auth) {
      authorizations.add(auth)
      const credential = auth.replace(/^\s*\S+\s+/, "").trim()
      if (credential) authorizations.add(credential)
    }
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (upRes) => {
        const chunks: Buffer[] = []
        upRes.on("data", (c: Buffer) => chunks.push(c))
        upRes.on("end", () => {
          const body = Buffer.concat(chunks)
          try {
            const parsed = JSON.parse(body.toString("utf8")) as Record<string, unknown>
            for (const key of ["access_token", "refresh_token", "id_token"]) {
              if (typeof parsed[key] === "string") tokens.add(parsed[key] as string)
            }
          } catch {
            // not JSON: nothing to note
          }
          res.writeHead(upRes.statusCode ?? 502, upRes.headers)
          res.end(body)
        })
        upRes.on("error", () => res.destroy())
      }
    )
    up.on("error", () => res.destroy())
    // The app gave up (its timeout): let the sandbox see the abort too.
    res.on("close", () => up.destroy())
    req.pipe(up)
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${address.port}`,
    tokens: () => [...tokens],
    authorizations: () => [...authorizations],
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      }),
  }
}

export interface Secret {
  name: string
  /** A literal to look for, or a pattern (for numbers written in several ways). */
  value: string | RegExp
}

export function findLeaks(text: string, secrets: Secret[]): string[] {
  return secrets
    .filter((s) => (typeof s.value === "string" ? s.value.length > 0 && text.includes(s.value) : s.value.test(text)))
    .map((s) => s.name)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

interface Knex {
  raw(sql: string, bindings?: unknown): Promise<{ rows: Array<Record<string, unknown>> }>
}

/**
 * `table: count` for every table of the public schema with a row whose text form matches one of
 * the secrets (case-sensitive, so base64 and hex noise does not match by accident).
 */
export async function databaseRowsContaining(container: MedusaContainer, secrets: Secret[]): Promise<Record<string, number>> {
  const pattern = secrets
    .map((s) => (typeof s.value === "string" ? escapeRegExp(s.value) : s.value.source))
    .filter((p) => p.length > 0)
    .join("|")
  if (!pattern) return {}
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as Knex
  const { rows } = await pg.raw(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)
  // One round trip: a count per table, all in one statement.
  const counts = rows.map(({ table_name }) => {
    const name = String(table_name).replace(/"/g, '""')
    const label = String(table_name).replace(/'/g, "''")
    return `select '${label}' as table_name, count(*) as n from "${name}" t where t::text ~ :pattern`
  })
  const result = await pg.raw(counts.join(" union all "), { pattern } as never)
  const found: Record<string, number> = {}
  for (const row of result.rows) {
    const n = Number(row.n)
    if (n > 0) found[String(row.table_name)] = n
  }
  return found
}

/**
 * Hostile webhook bodies as bytes on the wire, and a bare HTTP client to send them.
 *
 * Bodies are kept as ordered key/value entries and serialised by hand, so a test can send what
 * JSON.stringify never writes: an own `__proto__` key, or the same key twice.
 */
import { createHash, createHmac } from "node:crypto"
import http from "node:http"

export type Entries = Array<[string, unknown]>

export const SIGNED_FIELDS = ["merchantId", "orderId", "status", "timestamp", "comments"] as const
export const REQUIRED_FIELDS = ["merchantId", "orderId", "status", "timestamp", "txHash", "signature"] as const

/** A PayLater notification before signing. */
export interface Notification {
  merchantId: string
  orderId: string
  status: string
  timestamp: number | string
  comments?: string | null
  paylaterRef?: string
}

/**
 * Section 6, written again from the description so the routes are not checked against the code
 * under test: MD5 of the upper-cased concatenation, then HMAC-SHA256 of that hex text.
 */
export function txHashOf(n: Notification): string {
  const text = n.merchantId + n.orderId + n.status + String(n.timestamp) + (n.comments ?? "")
  return createHash("md5").update(Buffer.from(text.toUpperCase(), "utf8")).digest("hex")
}

export function hmacOf(text: string, secret: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(Buffer.from(text, "utf8")).digest("hex")
}

/** The entries of a correctly signed notification, in PayLater's field order. */
export function signedEntries(n: Notification, secret: string): Entries {
  const txHash = txHashOf(n)
  const entries: Entries = [
    ["merchantId", n.merchantId],
    ["orderId", n.orderId],
  ]
  if (n.paylaterRef !== undefined) entries.push(["paylaterRef", n.paylaterRef])
  entries.push(["status", n.status], ["timestamp", n.timestamp], ["txHash", txHash], ["signature", hmacOf(txHash, secret)])
  if (n.comments !== undefined) entries.push(["comments", n.comments])
  return entries
}

export function getEntry(entries: Entries, key: string): unknown {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i][0] === key) return entries[i][1]
  return undefined
}

/** Replaces the value of `key` (appending it when absent). */
export function setEntry(entries: Entries, key: string, value: unknown): Entries {
  let found = false
  const next = entries.map(([k, v]): [string, unknown] => {
    if (k !== key) return [k, v]
    found = true
    return [k, value]
  })
  if (!found) next.push([key, value])
  return next
}

export function withoutEntry(entries: Entries, key: string): Entries {
  return entries.filter(([k]) => k !== key)
}

/** JSON text of the entries, keys in order, duplicates and `__proto__` kept as written. */
export function serialise(entries: Entries): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`
}

export interface WireRequest {
  body: Buffer
  /** null sends no content-type header at all. */
  contentType: string | null
  extraHeaders?: Record<string, string>
}

export interface WireResponse {
  status: number
  contentType: string
  text: string
}

// A fresh connection per request: a kept-alive socket the server has just closed would turn into
// an ECONNRESET that says nothing about the body under test.
const agent = new http.Agent({ keepAlive: false })

/** POSTs exact bytes; a reset connection rejects (a test must see it, not a made-up status). */
export function rawPost(baseUrl: string, path: string, req: WireRequest): Promise<WireResponse> {
  const url = new URL(path, baseUrl)
  const headers: Record<string, string> = { "content-length": String(req.body.length), ...req.extraHeaders }
  if (req.contentType !== null) headers["content-type"] = req.contentType
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method: "POST", headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString("utf8"),
        })
      )
      res.on("error", reject)
    })
    r.on("error", reject)
    r.end(req.body)
  })
}

export function closeWire(): void {
  agent.destroy()
}

/** The JSON `message` of a refusal, or a description of what came instead. */
export function refusalMessage(res: WireResponse): string | null {
  if (!/application\/json/.test(res.contentType)) return null
  try {
    const parsed = JSON.parse(res.text) as unknown
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const message = (parsed as { message?: unknown }).message
      return typeof message === "string" && message.length > 0 ? message : null
    }
  } catch {
    return null
  }
  return null
}

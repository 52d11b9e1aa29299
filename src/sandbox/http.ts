import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * Handlers return a Reply instead of writing to the socket, so a fault can swap the answer after
 * the work was done (`commit`) and the server records every status in one place.
 */
export interface Reply {
  status: number
  json?: unknown
  html?: string
  text?: string
  headers?: Record<string, string>
}

export const json = (status: number, body: unknown): Reply => ({ status, json: body })
export const html = (status: number, body: string): Reply => ({ status, html: body })
export const redirect = (location: string): Reply => ({
  status: 303,
  headers: { location },
  text: "",
})

// PayLater's bodies are a few hundred bytes; anything far larger is a client bug or abuse.
export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      // Keep draining without keeping, so the 413 can still be answered on this connection.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) reject(new BodyTooLargeError("Request body too large"))
      else resolve(Buffer.concat(chunks).toString("utf8"))
    })
    req.on("error", reject)
  })
}

export type JsonBody = { ok: true; value: Record<string, unknown> } | { ok: false }

/** A JSON object body; anything else (array, scalar, malformed, empty) is refused by the caller. */
export function parseJsonObject(raw: string): JsonBody {
  if (raw.trim() === "") return { ok: false }
  try {
    const value: unknown = JSON.parse(raw)
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> }
    }
  } catch {
    // fall through
  }
  return { ok: false }
}

export function parseForm(raw: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(raw)) {
    if (!(k in out)) out[k] = v
  }
  return out
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return
  let payload = ""
  let type = "text/plain; charset=utf-8"
  if (reply.json !== undefined) {
    payload = JSON.stringify(reply.json)
    type = "application/json"
  } else if (reply.html !== undefined) {
    payload = reply.html
    type = "text/html; charset=utf-8"
  } else if (reply.text !== undefined) {
    payload = reply.text
  }
  const headers: Record<string, string | number> = {
    "content-type": type,
    "content-length": Buffer.byteLength(payload),
    "cache-control": "no-store",
    ...reply.headers,
  }
  res.writeHead(reply.status, headers)
  res.end(payload)
}

export function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of params) {
    if (!(k in out)) out[k] = v
  }
  return out
}

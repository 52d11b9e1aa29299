import type { IncomingMessage } from "node:http"
import { MAX_WEBHOOK_BYTES } from "../../../providers/paylater/webhook-input"

export type BodyResult = { ok: true; body: Record<string, unknown> } | { ok: false; message: string }

/**
 * Reads and parses the JSON body; anything but one JSON object is refused with a reason. One `data`
 * listener (cheaper per request than the stream's async iterator); past MAX_WEBHOOK_BYTES the
 * answer is given at once and the rest of the body is read and dropped, so the refusal reaches the
 * sender.
 */
export function readJsonObject(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    let first: Buffer | null = null
    let more: Buffer[] | null = null
    let size = 0
    let done = false
    const finish = (result: BodyResult) => {
      if (!done) {
        done = true
        resolve(result)
      }
    }
    req.on("data", (data: Buffer | string) => {
      if (done) return
      const chunk = typeof data === "string" ? Buffer.from(data) : data
      size += chunk.length
      if (size > MAX_WEBHOOK_BYTES) {
        first = more = null
        finish({ ok: false, message: "Webhook body is too large" })
      } else if (first === null) {
        first = chunk
      } else {
        ;(more ??= [first]).push(chunk)
      }
    })
    req.on("end", () => {
      if (done) return
      const bytes = more ? Buffer.concat(more, size) : first
      finish(parseObject(bytes ? bytes.toString("utf8") : ""))
    })
    req.on("error", () => finish({ ok: false, message: "Webhook body could not be read" }))
  })
}

function parseObject(raw: string): BodyResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { ok: false, message: "Webhook body must be JSON" }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: "Webhook body must be a JSON object" }
  }
  return { ok: true, body: parsed as Record<string, unknown> }
}

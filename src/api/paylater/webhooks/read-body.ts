import type { IncomingMessage } from "node:http"
import { MAX_WEBHOOK_BYTES } from "../../../providers/paylater/webhook-input"

export type BodyResult =
  | { ok: true; body: Record<string, unknown>; raw: string }
  | { ok: false; message: string }

/** Reads and parses the JSON body; anything but one JSON object is refused with a reason. */
export async function readJsonObject(req: IncomingMessage): Promise<BodyResult> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    size += buffer.length
    if (size > MAX_WEBHOOK_BYTES) {
      return { ok: false, message: "Webhook body is too large" }
    }
    chunks.push(buffer)
  }
  const raw = Buffer.concat(chunks).toString("utf8")
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { ok: false, message: "Webhook body must be JSON" }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: "Webhook body must be a JSON object" }
  }
  return { ok: true, body: parsed as Record<string, unknown>, raw }
}

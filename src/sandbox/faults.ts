import { z } from "zod"
import type { FaultEndpoint, FaultSpec, WebhookFaultSpec, WebhookStatus } from "./types"
import type { Reply } from "./http"

/** Shared by the programmatic API and the control API, so both refuse the same nonsense. */
export const faultSchema = z.object({
  endpoint: z.enum(["token", "link", "rtp", "status", "refund", "shopper", "*"]),
  mode: z.enum(["slow", "error", "timeout", "garbage"]),
  count: z.number().int().positive().optional(),
  delayMs: z.number().int().min(0).optional(),
  status: z.number().int().min(400).max(599).optional(),
  body: z.enum(["json", "text"]).optional(),
  commit: z.boolean().optional(),
})

export const webhookFaultSchema = z.object({
  mode: z.enum(["drop", "delay", "duplicate", "reorder"]),
  count: z.number().int().positive().optional(),
  delayMs: z.number().int().min(0).optional(),
  status: z.enum(["pending", "success", "failed"]).optional(),
})

interface ActiveFault<T> {
  spec: T
  remaining: number
}

/**
 * Queues of injected faults. Each matching call consumes one use; the first queued fault that
 * matches wins, so tests can stack e.g. "one timeout, then one error".
 */
export class FaultBook {
  private endpointFaults: Array<ActiveFault<FaultSpec>> = []
  private webhookFaults: Array<ActiveFault<WebhookFaultSpec>> = []

  add(spec: FaultSpec): void {
    this.endpointFaults.push({ spec, remaining: spec.count ?? 1 })
  }

  addWebhook(spec: WebhookFaultSpec): void {
    this.webhookFaults.push({ spec, remaining: spec.count ?? 1 })
  }

  /** Consumes one use of the first fault matching this endpoint. */
  take(endpoint: Exclude<FaultEndpoint, "*">): FaultSpec | null {
    return consume(this.endpointFaults, (f) => f.endpoint === endpoint || f.endpoint === "*")
  }

  /** Consumes one use of the first webhook fault for this notification's status (or for any). */
  takeWebhook(status: WebhookStatus): WebhookFaultSpec | null {
    return consume(this.webhookFaults, (f) => f.status === undefined || f.status === status)
  }

  list(): { faults: Array<FaultSpec & { remaining: number }>; webhookFaults: Array<WebhookFaultSpec & { remaining: number }> } {
    return {
      faults: this.endpointFaults.map((f) => ({ ...f.spec, remaining: f.remaining })),
      webhookFaults: this.webhookFaults.map((f) => ({ ...f.spec, remaining: f.remaining })),
    }
  }

  clear(): void {
    this.endpointFaults = []
    this.webhookFaults = []
  }
}

function consume<T>(queue: Array<ActiveFault<T>>, match: (spec: T) => boolean): T | null {
  const index = queue.findIndex((f) => match(f.spec))
  if (index < 0) return null
  const active = queue[index]
  active.remaining -= 1
  if (active.remaining <= 0) queue.splice(index, 1)
  return active.spec
}

export const DEFAULT_SLOW_MS = 2000
export const DEFAULT_WEBHOOK_DELAY_MS = 1000

const REASONS: Record<number, string> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
}

/** The answer an `error` fault gives: JSON like the service, or the HTML a proxy in front shows. */
export function errorFaultReply(spec: FaultSpec): Reply {
  const status = spec.status ?? 500
  const reason = REASONS[status] ?? "Error"
  const asText = spec.body ? spec.body === "text" : [502, 503, 504].includes(status)
  if (asText) {
    return { status, html: `<html><head><title>${status} ${reason}</title></head><body><h1>${status} ${reason}</h1></body></html>` }
  }
  return { status, json: { error: reason, status } }
}

/** A 200 that is not JSON: what a misrouted request or a captive portal answers. */
export function garbageReply(): Reply {
  return { status: 200, html: "<html>oops</html>" }
}

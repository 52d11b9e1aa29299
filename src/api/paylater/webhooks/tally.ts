import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../../../modules/paylater-ledger/resolve"

/**
 * Counts the webhook route's answers (200 accepted, 403 refused with its reason, 5xx failed) for
 * Settings → PayLater, off the request path: the answer is counted in memory when it has been sent,
 * and the counts are written once a second at most, one row per minute. Losing the last second's
 * counts in a crash is acceptable; slowing PayLater's acknowledgement is not.
 */

const FLUSH_MS = 1000

interface Pending {
  accepted: number
  refused: number
  failed: number
  last_refusal_reason: string | null
  last_refusal_at: Date | null
}

const pending = new Map<number, Pending>()
let timer: NodeJS.Timeout | null = null

function minuteOf(at: Date): number {
  return Math.floor(at.getTime() / 60_000) * 60_000
}

function count(container: MedusaContainer, status: number, reason: string | null): void {
  const at = new Date()
  const key = minuteOf(at)
  const row = pending.get(key) ?? { accepted: 0, refused: 0, failed: 0, last_refusal_reason: null, last_refusal_at: null }
  if (status < 300) row.accepted++
  else if (status < 500) {
    row.refused++
    row.last_refusal_reason = (reason ?? `HTTP ${status}`).slice(0, 300)
    row.last_refusal_at = at
  } else row.failed++
  pending.set(key, row)
  if (!timer) {
    timer = setTimeout(() => void flush(container), FLUSH_MS)
    timer.unref?.()
  }
}

async function flush(container: MedusaContainer): Promise<void> {
  timer = null
  const rows = [...pending.entries()]
  pending.clear()
  const service = ledgerModuleOf(container)
  if (!service) return
  for (const [minute, row] of rows) {
    try {
      await service.addWebhookTally({ minute: new Date(minute), ...row })
    } catch (error) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`PayLater: webhook counts for Settings → PayLater could not be saved: ${(error as Error)?.message ?? error}`)
    }
  }
}

/**
 * Call first thing in the webhook route: counts the answer once it is sent, whatever path the
 * route took. The refusal reason is the `message` of the JSON the route answered with.
 */
export function tallyWebhookAnswer(req: MedusaRequest, res: MedusaResponse): void {
  let message: string | null = null
  const json = res.json.bind(res)
  res.json = (body?: unknown) => {
    const text = (body as { message?: unknown } | null)?.message
    message = typeof text === "string" ? text : null
    return json(body)
  }
  res.once("finish", () => count(req.scope, res.statusCode, message))
}

import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { configuredRegistrations } from "../../../medusa-records/registrations"
import { WEBHOOK_DELAY_DEFAULT_MS } from "../../../providers/paylater/webhook-options"
import { PAYLATER_WEBHOOK_EVENT, queuedFields, verifyNotification } from "../../../signal-handlers/webhook"
import { readJsonObject } from "./read-body"
import { tallyWebhookAnswer } from "./tally"

// The acknowledgement, serialised once: PayLater's expected answer, at the cost of one socket write.
const RECEIVED = Buffer.from(JSON.stringify({ message: "Webhook received successfully" }))
const RECEIVED_HEADERS = { "content-type": "application/json; charset=utf-8", "content-length": String(RECEIVED.length) }

// As Medusa's own /hooks/payment route: a storefront-driven return gets a head start (the
// registration's `webhookDelayMs`, 5 s unless set), and a failed run is tried again (with the Redis
// event bus).
const ATTEMPTS = 3

function delayFor(container: MedusaContainer, registrationId: string): number {
  return configuredRegistrations(container).find((r) => r.id === registrationId)?.options?.webhooks.delayMs ?? WEBHOOK_DELAY_DEFAULT_MS
}

/**
 * POST /paylater/webhooks: the URL to give PayLater for both payment methods.
 *
 * One parse, one verification (the webhook secret of the provider registration, read once from the
 * configuration), then the notification is queued and PayLater answered: 403 + `{ message }` when it
 * fails verification (PayLater's contract), 200 as soon as it passes. Everything else (is the
 * session ours, what PayLater says, the order, the admin's history) is the deferred settlement's
 * (src/subscribers/paylater-webhook.ts), a bounded number at a time. Genuine notifications for
 * orders this store does not know also get 200, so PayLater stops retrying them.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  tallyWebhookAnswer(req, res)
  const receivedAt = new Date().toISOString()
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  const read = await readJsonObject(req)
  const verdict = read.ok ? verifyNotification(req.scope, read.body) : { ok: false as const, message: read.message }
  if (!verdict.ok) {
    const message = read.ok ? `PayLater webhook refused: ${verdict.message}` : verdict.message
    logger.warn(message)
    res.status(403).json({ message })
    return
  }
  // The verified fields, not the body: the deferred settlement trusts them as they are.
  const data = queuedFields(verdict.webhook, verdict.registration_id, receivedAt)
  try {
    await req.scope
      .resolve(Modules.EVENT_BUS)
      .emit({ name: PAYLATER_WEBHOOK_EVENT, data }, { delay: delayFor(req.scope, verdict.registration_id), attempts: ATTEMPTS })
  } catch (error) {
    // Our own failure: a 5xx makes PayLater deliver the notification again later.
    logger.error(`PayLater webhook could not be queued: ${(error as Error)?.message ?? "unknown error"}`)
    res.status(500).json({ message: "Webhook could not be processed, please retry" })
    return
  }
  res.writeHead(200, RECEIVED_HEADERS).end(RECEIVED)
}

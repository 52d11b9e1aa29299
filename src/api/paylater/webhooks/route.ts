import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { webhookEvent } from "../../../workflows/paylater-activity/events"
import { recordPayLaterActivity } from "../../../workflows/paylater-activity/record"
import { receivePayLaterWebhookWorkflow } from "../../../workflows/paylater-webhook/workflow"
import { readJsonObject } from "./read-body"

const RECEIVED = { message: "Webhook received successfully" }

/**
 * POST /paylater/webhooks: the URL to give PayLater for both payment methods.
 *
 * 403 + `{ message }` when the notification fails verification (PayLater's contract); 200 as soon
 * as it passes, with the order work left to Medusa's payment-webhook pipeline. Genuine notifications
 * for orders this store does not know also get 200 (logged), so PayLater stops retrying them.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  const read = await readJsonObject(req)
  if (!read.ok) {
    logger.warn(`PayLater webhook refused: ${read.message}`)
    res.status(403).json({ message: read.message })
    return
  }
  const { result, errors } = await receivePayLaterWebhookWorkflow(req.scope).run({
    input: { raw_body: read.raw },
    throwOnError: false,
  })
  const error = errors?.[0]?.error as { type?: string; message?: string } | undefined
  if (error) {
    const refused = error.type === MedusaError.Types.UNAUTHORIZED || error.type === MedusaError.Types.NOT_ALLOWED
    if (refused) {
      logger.warn(error.message ?? "PayLater webhook refused")
      res.status(403).json({ message: error.message ?? "Invalid signature" })
      return
    }
    // Our own failure: a 5xx makes PayLater deliver the notification again later.
    logger.error(`PayLater webhook could not be processed: ${error.message ?? "unknown error"}`)
    res.status(500).json({ message: "Webhook could not be processed, please retry" })
    return
  }
  // Unknown orders (already logged by the provider) also get 200, so PayLater stops retrying.
  res.status(200).json(RECEIVED)
  // After the answer, for the admin's order history: verified notifications only (a refused one
  // never gets here), best effort (errors are logged), repeats counted on one entry.
  if (result?.session_id) {
    await recordPayLaterActivity(req.scope, webhookEvent(read.body, result))
  }
}

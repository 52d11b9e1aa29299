import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { receivePayLaterWebhookWorkflow } from "../../../workflows/paylater-webhook/workflow"
import { readJsonObject } from "./read-body"
import { tallyWebhookAnswer } from "./tally"

const RECEIVED = { message: "Webhook received successfully" }

/**
 * POST /paylater/webhooks: the URL to give PayLater for both payment methods.
 *
 * 403 + `{ message }` when the notification fails verification (PayLater's contract); 200 as soon
 * as it passes, before any database work: the session lookup, the order and the admin's history are
 * left to Medusa's payment-webhook pipeline. Genuine notifications for orders this store does not
 * know also get 200 (the pipeline logs and drops them), so PayLater stops retrying them.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  tallyWebhookAnswer(req, res)
  const receivedAt = new Date().toISOString()
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  const read = await readJsonObject(req)
  if (!read.ok) {
    logger.warn(`PayLater webhook refused: ${read.message}`)
    res.status(403).json({ message: read.message })
    return
  }
  const { errors } = await receivePayLaterWebhookWorkflow(req.scope).run({
    input: { raw_body: read.raw, received_at: receivedAt },
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
  res.status(200).json(RECEIVED)
}

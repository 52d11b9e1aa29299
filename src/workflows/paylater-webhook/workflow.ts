import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitPaymentWebhookStep } from "./steps/emit-payment-webhook"
import { verifyPayLaterWebhookStep, type VerifyPayLaterWebhookInput } from "./steps/verify-paylater-webhook"

export const receivePayLaterWebhookWorkflowId = "receive-paylater-webhook"

/**
 * Only the raw text travels through the workflow: step inputs are deep-copied, and those copies
 * mishandle JSON members named `__proto__` or `hasOwnProperty` (found by the hostile-input tests).
 *
 * Verify now, everything else later: the route answers as soon as this returns. Whether the session
 * exists, what PayLater says about it, the order, the admin's history: all of it happens in Medusa's
 * payment-webhook pipeline (a notification for an unknown session is logged and dropped there).
 */
export const receivePayLaterWebhookWorkflow = createWorkflow(
  receivePayLaterWebhookWorkflowId,
  (input: VerifyPayLaterWebhookInput & { received_at: string }) => {
    const verified = verifyPayLaterWebhookStep({ raw_body: input.raw_body })
    emitPaymentWebhookStep({ provider_id: verified.provider_id, raw_body: input.raw_body, received_at: input.received_at })
    return new WorkflowResponse(verified)
  }
)

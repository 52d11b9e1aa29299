import { createWorkflow, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitPaymentWebhookStep } from "./steps/emit-payment-webhook"
import { verifyPayLaterWebhookStep, type VerifyPayLaterWebhookInput } from "./steps/verify-paylater-webhook"

export const receivePayLaterWebhookWorkflowId = "receive-paylater-webhook"

/**
 * Only the raw text travels through the workflow: step inputs are deep-copied, and those copies
 * mishandle JSON members named `__proto__` or `hasOwnProperty` (found by the hostile-input tests).
 *
 * Verify now, process later: the route answers as soon as this returns, and the order work happens
 * in Medusa's own pipeline. Unknown sessions stop here (nothing to process, PayLater gets its 200).
 */
export const receivePayLaterWebhookWorkflow = createWorkflow(
  receivePayLaterWebhookWorkflowId,
  (input: VerifyPayLaterWebhookInput) => {
    const verified = verifyPayLaterWebhookStep(input)
    when("paylater-webhook-known-session", { verified }, ({ verified }) => !!verified.session_id).then(() => {
      emitPaymentWebhookStep({ provider_id: verified.provider_id, raw_body: input.raw_body })
    })
    return new WorkflowResponse(verified)
  }
)

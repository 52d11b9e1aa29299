import {
  acquireLockStep,
  createOrUpdateOrderPaymentCollectionWorkflow,
  createPaymentSessionsWorkflow,
  releaseLockStep,
} from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { refreshPayLaterSessionStep } from "../paylater-payment-state/steps/refresh-session"
import { loadPayLaterOrderRequestStep } from "./steps/load-order-request"
import { validatePayLaterOrderRequestStep } from "./steps/validate-send"

export interface SendPayLaterOrderRequestInput {
  order_id: string
  /** As staff typed it; normalised and masked by the provider, never stored in full. */
  mobile_number: unknown
}

export const sendPayLaterOrderRequestWorkflowId = "send-paylater-order-request"

/**
 * Point of sale: a Request to Pay for what is outstanding on an order. Under a per-order lock so
 * two clicks cannot push two requests; the latest request is confirmed with PayLater first so an
 * expired or declined one can be replaced, and a live one never is.
 */
export const sendPayLaterOrderRequestWorkflow = createWorkflow(
  sendPayLaterOrderRequestWorkflowId,
  (input: SendPayLaterOrderRequestInput) => {
    const lockKey = transform({ input }, ({ input }) => `paylater:order-request:${input.order_id}`)
    acquireLockStep({ key: lockKey, timeout: 5, ttl: 120 })

    const before = loadPayLaterOrderRequestStep({ order_id: input.order_id })
    const latest = transform({ before }, ({ before }) => before.latest)
    refreshPayLaterSessionStep({ context: latest, throttle_seconds: null })
    const context = loadPayLaterOrderRequestStep({ order_id: input.order_id }).config({
      name: "reload-paylater-order-request",
    })
    const validated = validatePayLaterOrderRequestStep({ context, mobile_number: input.mobile_number })

    // Reuses the order's unpaid collection (its amount set to what is outstanding) or creates one.
    const collections = createOrUpdateOrderPaymentCollectionWorkflow.runAsStep({ input: { order_id: input.order_id } })
    const paymentCollectionId = transform({ collections }, ({ collections }) => {
      const list = (Array.isArray(collections) ? collections : [collections]) as Array<{ id: string }>
      return list[0].id
    })
    // Replaces the collection's previous (ended) session; the provider pushes the request.
    const session = createPaymentSessionsWorkflow.runAsStep({
      input: {
        payment_collection_id: paymentCollectionId,
        provider_id: validated.provider_id,
        data: { mobile_number: input.mobile_number },
      },
    })

    releaseLockStep({ key: lockKey })
    return new WorkflowResponse(transform({ session }, ({ session }) => ({ session_id: session.id })))
  }
)

import {
  acquireLockStep,
  createOrUpdateOrderPaymentCollectionWorkflow,
  createPaymentSessionsWorkflow,
  releaseLockStep,
} from "@medusajs/medusa/core-flows"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { readOrderRequestContext, type OrderRequestContext } from "../../point-of-sale/order-context"
import { decideOrderRequest } from "../../point-of-sale/request-state"
import { mobileFromSessionData } from "../../providers/paylater/request-to-pay/mobile"
import type { PayLaterSessionContext } from "../../medusa-records/session"
import { settleForScreen } from "../../signal-handlers/waiting-screen"

export interface SendPayLaterOrderRequestInput {
  order_id: string
  /** As staff typed it; normalised and masked by the provider, never stored in full. */
  mobile_number: unknown
}

const loadPayLaterOrderRequestStep = createStep(
  "load-paylater-order-request",
  async (input: { order_id: string }, { container }) => {
    return new StepResponse(await readOrderRequestContext(container, input.order_id))
  }
)

/** The latest request settled now (unthrottled): an expired or declined one can then be replaced. */
const settleLatestRequestStep = createStep(
  "settle-latest-paylater-request",
  async (input: { latest: PayLaterSessionContext | null }, { container }) => {
    if (input.latest) {
      await settleForScreen(container, input.latest.session_id, null)
    }
    return new StepResponse(undefined)
  }
)

/**
 * Refuses before anything is created: a malformed number, nothing outstanding, or a request still
 * live (a second push would let the shopper pay twice). Picks the Request to Pay provider the
 * order's region offers.
 */
const validatePayLaterOrderRequestStep = createStep(
  "validate-paylater-order-request",
  async (input: { context: OrderRequestContext; mobile_number: unknown }) => {
    mobileFromSessionData({ mobile_number: input.mobile_number })
    const state = decideOrderRequest(input.context, new Date())
    if (!state.can_send) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, state.blocked_reason ?? "A Request to Pay cannot be sent now.")
    }
    return new StepResponse({ provider_id: input.context.rtp_provider_ids[0] })
  }
)

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
    settleLatestRequestStep({ latest })
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

import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { mobileFromSessionData } from "../../../providers/paylater/request-to-pay/mobile"
import { decideOrderRequest } from "../decide"
import type { OrderRequestContext } from "../order-context"

export const validatePayLaterOrderRequestStepId = "validate-paylater-order-request"

/**
 * Refuses before anything is created: a malformed number, nothing outstanding, or a request still
 * live (a second push would let the shopper pay twice). Picks the Request to Pay provider the
 * order's region offers.
 */
export const validatePayLaterOrderRequestStep = createStep(
  validatePayLaterOrderRequestStepId,
  async (input: { context: OrderRequestContext; mobile_number: unknown }) => {
    mobileFromSessionData({ mobile_number: input.mobile_number })
    const state = decideOrderRequest(input.context, new Date())
    if (!state.can_send) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, state.blocked_reason ?? "A Request to Pay cannot be sent now.")
    }
    return new StepResponse({ provider_id: input.context.rtp_provider_ids[0] })
  }
)

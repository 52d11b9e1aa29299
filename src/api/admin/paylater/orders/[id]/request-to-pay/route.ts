import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { orderRequestState } from "../../../../../../signal-handlers/waiting-screen"
import { sendPayLaterOrderRequestWorkflow } from "../../../../../../workflows/paylater-order-request/workflow"

/** GET /admin/paylater/orders/:id/request-to-pay: the order's Request to Pay state, live. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const state = await orderRequestState(req.scope, req.params.id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ request_to_pay: state })
}

/**
 * POST /admin/paylater/orders/:id/request-to-pay { mobile_number }: pushes a Request to Pay for the
 * order's outstanding amount to the shopper's PayLater app, then answers like GET.
 */
export async function POST(req: AuthenticatedMedusaRequest<{ mobile_number?: unknown }>, res: MedusaResponse): Promise<void> {
  const body = (req.body ?? {}) as { mobile_number?: unknown }
  if (typeof body.mobile_number !== "string" || body.mobile_number.length > 40) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "mobile_number is required, e.g. \"3312 3456\".")
  }
  await sendPayLaterOrderRequestWorkflow(req.scope).run({
    input: { order_id: req.params.id, mobile_number: body.mobile_number },
  })
  const state = await orderRequestState(req.scope, req.params.id)
  res.status(201).json({ request_to_pay: state })
}

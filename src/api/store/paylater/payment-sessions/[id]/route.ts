import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payLaterPaymentStateWorkflow } from "../../../../../workflows/paylater-payment-state/workflow"

/**
 * GET /store/paylater/payment-sessions/:id: the Request to Pay waiting screen polls this.
 *
 * Answers from our own records: { status: "waiting", seconds_left, expires_at } | { status: "processing" }
 * | { status: "paid", order_id } | { status: "declined" } | { status: "expired" }. A /store route, so
 * the publishable key is required. 404 for sessions that are not PayLater's.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { result } = await payLaterPaymentStateWorkflow(req.scope).run({ input: { session_id: req.params.id } })
  if (!result.state) {
    res.status(404).json({ type: "not_found", message: `No PayLater payment session ${req.params.id}` })
    return
  }
  // Polled: never cached by the browser or a proxy.
  res.setHeader("Cache-Control", "no-store")
  res.json(result.state)
}

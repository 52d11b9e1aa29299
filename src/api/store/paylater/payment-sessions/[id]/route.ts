import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { waitingScreenState } from "../../../../../signal-handlers/waiting-screen"

/**
 * GET /store/paylater/payment-sessions/:id: the Request to Pay waiting screen polls this.
 *
 * Answers from our own records: { status: "waiting", seconds_left, expires_at } | { status: "processing" }
 * | { status: "paid", order_id } | { status: "paid_not_placed", retrying? } (paid, but a completion of
 * the cart failed: what the return route says; `retrying: true` while the paid session is kept and its
 * completion is tried again, so a later answer may be "paid") | { status: "declined" } | { status: "expired" }. PayLater is asked
 * only while the session is not settled, at most once per session every few seconds. A /store
 * route, so the publishable key is required. 404 for sessions that are not PayLater's.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const state = await waitingScreenState(req.scope, req.params.id)
  if (!state) {
    res.status(404).json({ type: "not_found", message: `No PayLater payment session ${req.params.id}` })
    return
  }
  // Polled: never cached by the browser or a proxy.
  res.setHeader("Cache-Control", "no-store")
  res.json(state)
}

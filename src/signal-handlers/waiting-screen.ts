import type { MedusaContainer } from "@medusajs/framework/types"
import { readOrderRequestContext } from "../point-of-sale/order-context"
import { decideOrderRequest, type OrderRequestState } from "../point-of-sale/request-state"
import { recordAutomaticCheck } from "../activity/record"
import { recordedPaymentOf } from "../medusa-records/payment-attempt"
import { viewOf, type AttemptView } from "../modules/paylater-ledger/attempt-state"
import type { PayLaterSessionContext } from "../medusa-records/session"
import { settlePayLaterSession } from "../settlement/settle"
import { STATUS_CALL_INTERVAL_SECONDS } from "../limits/status-interval"

/** How often a waiting session may be checked with PayLater while someone polls it. */
export const POLL_STATUS_INTERVAL_SECONDS = STATUS_CALL_INTERVAL_SECONDS

/**
 * A screen waiting on a payment (the storefront's Request to Pay screen, the admin's order widget):
 * settles the session, asking PayLater at most once per interval across instances (`throttle_seconds`
 * null asks now: a staff action), and returns it as it is afterwards. Null for unknown sessions.
 */
export async function settleForScreen(
  container: MedusaContainer,
  sessionId: string,
  throttleSeconds: number | null = POLL_STATUS_INTERVAL_SECONDS
): Promise<PayLaterSessionContext | null> {
  return (await settleScreen(container, sessionId, throttleSeconds)).session
}

async function settleScreen(container: MedusaContainer, sessionId: string, throttleSeconds: number | null) {
  const result = await settlePayLaterSession(container, {
    session_id: sessionId,
    signal: "poll",
    ...(throttleSeconds === null ? {} : { throttle_seconds: throttleSeconds }),
  })
  recordAutomaticCheck(container, result, result.session?.for_order ? "order_widget" : "storefront")
  return result
}

/** The storefront waiting screen's answer (GET /store/paylater/payment-sessions/:id). */
/** `paid_not_placed`: PayLater took the money but the cart could not become an order (refunded or held). */
export type WaitingScreenState = AttemptView

export async function waitingScreenState(container: MedusaContainer, sessionId: string): Promise<WaitingScreenState | null> {
  const result = await settleScreen(container, sessionId, POLL_STATUS_INTERVAL_SECONDS)
  // A gone session (a restarted checkout, a failed completion) is answered by its row.
  if (result.facts) return viewOf(result.facts, new Date())
  // Medusa deletes the paid session when its cart cannot become an order: say so, not "gone".
  return (await recordedPaymentOf(container, sessionId)) ? { status: "paid_not_placed" } : null
}

/**
 * The admin order widget's live view of a point-of-sale Request to Pay: the latest request settled
 * (PayLater asked at most every few seconds while it waits), then the order's state read again.
 */
export async function orderRequestState(container: MedusaContainer, orderId: string): Promise<OrderRequestState> {
  const before = await readOrderRequestContext(container, orderId)
  if (before.latest) {
    await settleForScreen(container, before.latest.session_id)
  }
  return decideOrderRequest(await readOrderRequestContext(container, orderId), new Date())
}

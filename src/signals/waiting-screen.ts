import type { MedusaContainer } from "@medusajs/framework/types"
import { readOrderRequestContext } from "../point-of-sale/order-context"
import { decideOrderRequest, type OrderRequestState } from "../point-of-sale/request-state"
import { recordAutomaticCheck } from "../activity/record"
import { decidePaymentState, type PayLaterPaymentState } from "../settlement/payment-state"
import type { PayLaterSessionContext } from "../settlement/session"
import { settlePayLaterSession } from "../settlement/settle"

/** How often a waiting session may be checked with PayLater while someone polls it. */
export const POLL_STATUS_INTERVAL_SECONDS = 5

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
  const result = await settlePayLaterSession(container, {
    session_id: sessionId,
    signal: "poll",
    ...(throttleSeconds === null ? {} : { throttle_seconds: throttleSeconds }),
  })
  const after = result.session
  recordAutomaticCheck(container, result, after?.for_order ? "order_widget" : "storefront")
  return after
}

/** The storefront waiting screen's answer (GET /store/paylater/payment-sessions/:id). */
export async function waitingScreenState(container: MedusaContainer, sessionId: string): Promise<PayLaterPaymentState | null> {
  const session = await settleForScreen(container, sessionId)
  return session ? decidePaymentState(session, new Date()) : null
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

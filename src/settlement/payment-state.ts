import type { PayLaterSessionContext } from "./session"

/** What a waiting screen (storefront) or the order widget (admin) shows. */
export type PayLaterPaymentState =
  | { status: "waiting"; seconds_left: number; expires_at: string | null }
  /** PayLater confirmed the payment; the order is being placed (cart) or the payment recorded. */
  | { status: "processing" }
  | { status: "paid"; order_id: string }
  | { status: "declined" }
  | { status: "expired" }

/**
 * After the expiry, "waiting" is kept until PayLater confirms the end (a payment approved in the last
 * second must not be shown as expired), but never longer than this: an unreachable PayLater must not
 * leave a shopper looking at a spinner forever. A late success still places the order by webhook.
 */
export const EXPIRY_GRACE_MS = 60_000

export function decidePaymentState(
  context: Pick<PayLaterSessionContext, "session_status" | "session_data" | "order_id">,
  now: Date
): PayLaterPaymentState {
  const data = context.session_data
  if (context.session_status === "authorized" || context.session_status === "captured") {
    // Authorized means PayLater said success and Medusa recorded the payment and its capture.
    return context.order_id ? { status: "paid", order_id: context.order_id } : { status: "processing" }
  }
  if (data.paylater_status_code === 2) {
    return { status: "processing" }
  }
  if (data.paylater_status_code === 3 || context.session_status === "error" || context.session_status === "canceled") {
    return data.paylater_failure_reason === "expired" ? { status: "expired" } : { status: "declined" }
  }
  const expiresAt = data.expires_at ? Date.parse(data.expires_at) : NaN
  if (Number.isNaN(expiresAt)) {
    return { status: "waiting", seconds_left: 0, expires_at: null }
  }
  const left = expiresAt - now.getTime()
  if (left < -EXPIRY_GRACE_MS) {
    return { status: "expired" }
  }
  return { status: "waiting", seconds_left: Math.max(0, Math.ceil(left / 1000)), expires_at: data.expires_at! }
}

/** Final states: nothing more can happen to the session by asking PayLater. */
export function isSettled(state: PayLaterPaymentState): boolean {
  return state.status === "paid" || state.status === "declined" || state.status === "expired"
}

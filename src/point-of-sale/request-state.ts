import { MathBN } from "@medusajs/framework/utils"
import type { AttemptView } from "../modules/paylater-ledger/attempt-state"
import { viewOfSession } from "../settlement/attempt-view"
import type { OrderRequestContext } from "./order-context"
import { storedAmountText } from "../providers/paylater/money"
import { maskedNumberOf } from "../activity/attempt-facts"

export interface OrderRequestState {
  order_id: string
  currency_code: string
  outstanding_amount: string
  /** True when staff may send a (new) Request to Pay now. */
  can_send: boolean
  /** Why not, in words for the admin; null when can_send. */
  blocked_reason: string | null
  request:
    | (AttemptView & {
        session_id: string
        mobile_number_masked: string | null
        amount: string | null
        expires_at: string | null
      })
    | null
}

/** What the order widget shows, and whether a new request may be sent (never two live ones). */
export function decideOrderRequest(context: OrderRequestContext, now: Date): OrderRequestState {
  const latest = context.latest
  const request = latest
    ? {
        expires_at: latest.attempt?.expires_at ? new Date(latest.attempt.expires_at).toISOString() : null,
        ...viewOfSession(latest, now),
        session_id: latest.session_id,
        // The ledger's record of the request, not the session's data (which the storefront can write).
        mobile_number_masked: maskedNumberOf(latest.attempt),
        amount: latest.attempt ? storedAmountText(latest.attempt) : null,
      }
    : null
  return {
    order_id: context.order_id,
    currency_code: context.currency_code,
    outstanding_amount: context.outstanding_amount,
    ...blockedReason(context, request?.status ?? null),
    request,
  }
}

function blockedReason(
  context: OrderRequestContext,
  requestStatus: AttemptView["status"] | null
): { can_send: boolean; blocked_reason: string | null } {
  const reason =
    context.is_draft_order || context.order_status === "draft"
      ? "Convert the draft order to an order first."
      : context.order_status === "canceled"
        ? "The order is canceled."
        : context.currency_code.toLowerCase() !== "qar"
          ? "PayLater takes payments in Qatari riyal (QAR) only."
          : requestStatus === "waiting"
            ? "A request is waiting in the shopper's PayLater app. Send a new one after it is declined or expires."
            : requestStatus === "processing" || requestStatus === "paid"
              ? "The shopper has paid this request."
              : context.checkout_money_unrecorded
                ? `PayLater already holds ${context.checkout_money_unrecorded} QAR paid at this order's checkout, which Medusa has not recorded on the order yet. It is recorded within minutes (see Settings → PayLater); do not ask the shopper to pay again.`
              : !MathBN.gt(context.outstanding_amount, 0)
                ? "Nothing is outstanding on this order."
                : context.rtp_provider_ids.length === 0
                  ? "PayLater Request to Pay is not enabled in this order's region."
                  : null
  return { can_send: reason === null, blocked_reason: reason }
}

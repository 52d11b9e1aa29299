/**
 * What the shopper reads when a PayLater payment did not go through. The reason comes from the
 * plugin's return route (`paylater_error=` in the failure URL); anything unexpected gets the generic
 * wording, because the query string is user-editable and must never be shown as is.
 */
export type PayLaterFailureReason = "declined" | "expired" | "abandoned" | "error" | "paid_not_placed"

const MESSAGES: Record<PayLaterFailureReason, { title: string; body: string }> = {
  declined: {
    title: "PayLater declined the payment",
    body: "No money was taken. You can try PayLater again, for example after checking your spending limit in the PayLater app.",
  },
  expired: {
    title: "The PayLater payment expired",
    body: "The payment was not completed in time, so nothing was charged. Start a new PayLater payment to continue.",
  },
  abandoned: {
    title: "You left PayLater before paying",
    body: "Nothing was charged and your cart is still here. You can go back to PayLater whenever you are ready.",
  },
  // PayLater took the money but the cart could not become an order (an item sold out, the cart
  // changed): never "declined", and never an invitation to pay again.
  paid_not_placed: {
    title: "Your payment was received, but the order could not be placed",
    body: "Your payment was received but the order could not be placed; it will be refunded in full to your PayLater account (PayLater accepts refunds from 10 minutes after a payment). You do not need to do anything, and you were not charged twice. If you have questions, contact us.",
  },
  error: {
    title: "We could not place your order",
    body: "Something went wrong after PayLater answered. Please try again; if it keeps happening, contact us and we will check the payment for you.",
  },
}

export function failureMessage(reason: string | null): { title: string; body: string } {
  if (reason && reason in MESSAGES) return MESSAGES[reason as PayLaterFailureReason]
  return {
    title: "The PayLater payment did not go through",
    body: "Nothing was charged. Please try again.",
  }
}

/** A reason whose money was taken: the page must not offer to pay again. */
export function paymentWasTaken(reason: string | null): boolean {
  return reason === "paid_not_placed"
}

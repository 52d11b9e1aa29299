/**
 * `medusa-payment-paylater-storefront`: what a storefront needs to take PayLater, framework-free
 * and with no dependencies (it works with the storefront's own `@medusajs/js-sdk` instance). React
 * components built on it are in `medusa-payment-paylater-storefront/react`. See
 * docs/storefront-dtc-starter.md for a whole checkout.
 */
export { PAYLATER_LINK_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, type CartLike, type PayLaterSdk, type PaymentSessionLike } from "./sdk"
export { SHOPPER_MESSAGES, shopperMessage, type Bilingual, type Locale, type ShopperMessageKey } from "./messages"
export { PayLaterCheckoutError, toCheckoutError, type CheckoutErrorCode, type CheckoutErrorKind } from "./errors"
export {
  payLaterAvailability,
  requestToPayData,
  startLinkCheckout,
  startRequestToPay,
  suggestedMobileNumber,
  type LinkCheckout,
  type PayLaterAvailability,
  type RequestToPaySessionData,
  type ShopperContact,
  type StartedRequestToPay,
} from "./checkout"
export {
  checkPendingOrder,
  fetchRequestToPayState,
  isFinalState,
  nextDelay,
  NOT_PLACED_WATCH,
  pollRequestToPay,
  waitForPendingOrder,
  type PendingOutcome,
  type PollOptions,
  type RequestToPayState,
} from "./poll"
export { failureMessage, paymentWasTaken, readPayLaterReturn, type PayLaterFailureReason, type PayLaterReturn } from "./return-params"
export {
  isPayLaterProvider,
  isRequestToPayProvider,
  PAY_BUTTON_TEXT,
  payLaterButtonText,
  payLaterChoice,
  payLaterSessionOf,
} from "./choice"
export {
  fetchPlacedOrder,
  leaveForPlacedOrder,
  orderConfirmationPath,
  placedOrderOf,
  type LeaveForOrderOptions,
  type PlacedOrder,
} from "./placed"
export { describeInstalments, fetchInstalments, type InstalmentOffer, type InstalmentQuery } from "./instalments"

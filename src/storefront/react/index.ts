/**
 * `medusa-payment-paylater-storefront/react`: React components over the storefront kit. React is an
 * optional peer dependency (18 or 19); no styling library: every element has a `paylater-…` class
 * and `data-*` state, and `className` / `classNames` take the storefront's own (e.g. Tailwind).
 * Client components: in the Next.js App Router, use them from a "use client" file.
 */
export { PayLaterButton, type PayLaterButtonProps } from "./PayLaterButton"
export { RequestToPayForm, type RequestToPayFormProps } from "./RequestToPayForm"
export { RequestToPayWaiting, type RequestToPayWaitingProps } from "./RequestToPayWaiting"
export { PayLaterPendingNotice, type PayLaterPendingNoticeProps } from "./PayLaterPendingNotice"
export { PayLaterInstalments, type PayLaterInstalmentsProps } from "./PayLaterInstalments"

/**
 * The process-wide slots this package keeps (process-slot.ts), in one place so a message can name
 * what it checked. A slot's shape changes only with a new version suffix.
 */
export const LEDGER_PORT_SLOT = "medusa-payment-paylater.ledger-port.v1"
export const REQUEST_CONTEXT_SLOT = "medusa-payment-paylater.request-context.v1"
export const WEBHOOK_SLOTS_SLOT = "medusa-payment-paylater.webhook-settlement-slots.v1"
export const CART_COMPLETION_SLOT = "medusa-payment-paylater.cart-completion.v1"

import { wholeNumberOption } from "./reconcile-options"

/**
 * How often a storefront may make PayLater act for one mobile number or one cart (docs/security.md).
 * Anyone with the publishable key and a cart can ask for a Request to Pay: without a budget they
 * could push requests to any Qatar number as often as they like, or probe numbers with the look-up,
 * at our cost with PayLater. Counted across instances in Medusa's locking module (src/limits).
 */

export interface LimitOptionsInput {
  /** Requests to Pay and shopper look-ups per mobile number within the window below (default 3). */
  requestToPayLimitPerMobile?: number | string
  /** The per-number window in minutes (default 10). */
  requestToPayLimitPerMobileMinutes?: number | string
  /** Requests to Pay per cart within the window below (default 5). */
  requestToPayLimitPerCart?: number | string
  /** The per-cart window in minutes (default 60). */
  requestToPayLimitPerCartMinutes?: number | string
  /** Payment links created per cart within the window below (default 10). */
  paymentLinkLimitPerCart?: number | string
  /** The payment-link window in minutes (default 60). */
  paymentLinkLimitPerCartMinutes?: number | string
}

export interface Budget {
  /** At most this many within any `windowSeconds`. */
  max: number
  windowSeconds: number
}

export interface LimitSettings {
  requestToPayPerMobile: Budget
  requestToPayPerCart: Budget
  paymentLinkPerCart: Budget
}

export const LIMIT_DEFAULTS = {
  requestToPayPerMobile: { max: 3, minutes: 10 },
  requestToPayPerCart: { max: 5, minutes: 60 },
  paymentLinkPerCart: { max: 10, minutes: 60 },
} as const

// Each use of a budget may try every one of its slots (src/limits/slots.ts): keep that bounded.
const MAX_PER_WINDOW = 100
const MAX_WINDOW_MINUTES = 1440

function budget(
  raw: Record<string, unknown>,
  maxOption: keyof LimitOptionsInput,
  minutesOption: keyof LimitOptionsInput,
  fallback: { max: number; minutes: number },
  what: string,
  problems: string[]
): Budget {
  const max = wholeNumberOption(raw, maxOption, 1, MAX_PER_WINDOW, fallback.max, what, problems)
  const minutes = wholeNumberOption(raw, minutesOption, 1, MAX_WINDOW_MINUTES, fallback.minutes, `the window of ${maxOption} in minutes`, problems)
  return { max, windowSeconds: minutes * 60 }
}

/** Reads the limits; `problems` collects what is wrong (reported with every other option problem). */
export function readLimitOptions(raw: Record<string, unknown>, problems: string[]): LimitSettings {
  return {
    requestToPayPerMobile: budget(
      raw,
      "requestToPayLimitPerMobile",
      "requestToPayLimitPerMobileMinutes",
      LIMIT_DEFAULTS.requestToPayPerMobile,
      "Requests to Pay and look-ups per mobile number",
      problems
    ),
    requestToPayPerCart: budget(
      raw,
      "requestToPayLimitPerCart",
      "requestToPayLimitPerCartMinutes",
      LIMIT_DEFAULTS.requestToPayPerCart,
      "Requests to Pay per cart",
      problems
    ),
    paymentLinkPerCart: budget(
      raw,
      "paymentLinkLimitPerCart",
      "paymentLinkLimitPerCartMinutes",
      LIMIT_DEFAULTS.paymentLinkPerCart,
      "payment links per cart",
      problems
    ),
  }
}

import { wholeNumberOption } from "./reconcile-options"
import type { Budget, LimitSettings } from "../../limits/budget"

export type { Budget, LimitSettings }

/**
 * How often the store API may make PayLater act (docs/security.md). Anyone with the publishable key
 * and a cart can start a PayLater payment: without budgets they could push requests to any Qatar
 * number, probe numbers with the shopper look-up, or create PayLater attempts by the hundred, at our
 * cost with PayLater. Counted across instances (src/limits).
 */

export interface LimitOptionsInput {
  /** Requests to Pay actually pushed to one mobile number within the window below (default 3). */
  requestToPayLimitPerMobile?: number | string
  /** The per-number window in minutes (default 10). */
  requestToPayLimitPerMobileMinutes?: number | string
  /** Requests to Pay started (look-up included) per cart within the window below (default 5). */
  requestToPayLimitPerCart?: number | string
  /** The per-cart window in minutes (default 60). */
  requestToPayLimitPerCartMinutes?: number | string
  /** Payment links created per cart within the window below (default 10). */
  paymentLinkLimitPerCart?: number | string
  /** The payment-link window in minutes (default 60). */
  paymentLinkLimitPerCartMinutes?: number | string
  /** PayLater payments (links and Requests to Pay) started by one client address within the window below (default 20). */
  startLimitPerClient?: number | string
  /** The per-client window in minutes (default 10). */
  startLimitPerClientMinutes?: number | string
  /** PayLater payments started through the store API by everyone together, per minute (default 120). */
  startLimitPerMinute?: number | string
  /**
   * How many proxies in front of Medusa append to X-Forwarded-For (Express's `trust proxy` as a
   * number; default 1, as Medusa sets it). 0: Medusa faces the internet directly.
   */
  trustedProxyHops?: number | string
}

export const LIMIT_DEFAULTS = {
  requestToPayPerMobile: { max: 3, minutes: 10 },
  requestToPayPerCart: { max: 5, minutes: 60 },
  paymentLinkPerCart: { max: 10, minutes: 60 },
  startsPerClient: { max: 20, minutes: 10 },
  startsPerStore: { max: 120, minutes: 1 },
  trustedProxyHops: 1,
} as const

// A counter per key costs the same whatever its maximum; the bound only catches typing mistakes.
const MAX_PER_WINDOW = 100_000
const MAX_WINDOW_MINUTES = 1440
const MAX_PROXY_HOPS = 10

function budget(
  raw: Record<string, unknown>,
  maxOption: keyof LimitOptionsInput,
  minutesOption: keyof LimitOptionsInput | null,
  fallback: { max: number; minutes: number },
  what: string,
  problems: string[]
): Budget {
  const max = wholeNumberOption(raw, maxOption, 1, MAX_PER_WINDOW, fallback.max, what, problems)
  const minutes = minutesOption
    ? wholeNumberOption(raw, minutesOption, 1, MAX_WINDOW_MINUTES, fallback.minutes, `the window of ${maxOption} in minutes`, problems)
    : fallback.minutes
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
      "Requests to Pay pushed per mobile number",
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
    startsPerClient: budget(
      raw,
      "startLimitPerClient",
      "startLimitPerClientMinutes",
      LIMIT_DEFAULTS.startsPerClient,
      "PayLater payments started per client address",
      problems
    ),
    startsPerStore: budget(
      raw,
      "startLimitPerMinute",
      null,
      LIMIT_DEFAULTS.startsPerStore,
      "PayLater payments started per minute by all clients together",
      problems
    ),
    trustedProxyHops: wholeNumberOption(
      raw,
      "trustedProxyHops",
      0,
      MAX_PROXY_HOPS,
      LIMIT_DEFAULTS.trustedProxyHops,
      "proxies in front of Medusa that append to X-Forwarded-For",
      problems
    ),
  }
}

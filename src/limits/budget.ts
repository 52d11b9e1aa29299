/**
 * The shape of the store API's budgets, read from the provider's options
 * (providers/paylater/limit-options.ts) and counted here. Its own file so the counters need nothing
 * from the provider folder, which imports this folder's status-call interval.
 */
export interface Budget {
  /** At most this many within any `windowSeconds`. */
  max: number
  windowSeconds: number
}

export interface LimitSettings {
  requestToPayPerMobile: Budget
  requestToPayPerCart: Budget
  paymentLinkPerCart: Budget
  startsPerClient: Budget
  startsPerStore: Budget
  trustedProxyHops: number
}

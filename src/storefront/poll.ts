import { payLaterSessionOf } from "./choice"
import type { PayLaterSdk } from "./sdk"

/**
 * Following a payment that is not decided yet: the Request to Pay waiting state (the plugin's
 * GET /store/paylater/payment-sessions/:id, answered from the store's records) and the pending page
 * after a payment link (Medusa's own cart completion, safe to repeat). Both poll with backoff after
 * failures and stop when their AbortSignal aborts.
 */

/** What GET /store/paylater/payment-sessions/:id answers, plus `gone` for its 404. */
export type RequestToPayState =
  /** In the shopper's app; `seconds_left` may reach 0 shortly before PayLater confirms `expired`. */
  | { status: "waiting"; seconds_left: number; expires_at: string | null }
  /** Approved; the order is being placed. Keep polling. */
  | { status: "processing" }
  | { status: "paid"; order_id: string }
  | { status: "declined" }
  | { status: "expired" }
  /**
   * PayLater took the money but the order could not be placed: it is refunded. `retrying`: the store
   * still tries the completion again (its paid session was kept) until the money goes back, so a
   * later answer may be `paid`; without it, final.
   */
  | { status: "paid_not_placed"; retrying?: boolean }
  /** The route answered 404: the session was replaced (a newer request or another payment method). */
  | { status: "gone" }

/** States that no later answer changes: all but the waiting ones and a `paid_not_placed` still `retrying`. */
export function isFinalState(state: RequestToPayState): boolean {
  if (state.status === "paid_not_placed") return !state.retrying
  return ["paid", "declined", "expired", "gone"].includes(state.status)
}

/**
 * After "paid, not placed" while the store still retries: how often and how long the poll keeps
 * watching for the order. The store tries a failed completion again after 30 s, 1, 2, 4, 8 and 16
 * minutes, and refunds the money from 10 minutes after the payment: the try after the refund says
 * so (no longer `retrying`), inside this watch.
 */
export const NOT_PLACED_WATCH = { intervalMs: 15_000, forMs: 20 * 60_000 }

/** One look at a Request to Pay. Throws on network and server errors. */
export async function fetchRequestToPayState(
  sdk: PayLaterSdk,
  sessionId: string,
  signal?: AbortSignal
): Promise<RequestToPayState> {
  try {
    return await sdk.client.fetch<RequestToPayState>(`/store/paylater/payment-sessions/${encodeURIComponent(sessionId)}`, { signal })
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return { status: "gone" }
    throw error
  }
}

export interface PollOptions {
  signal?: AbortSignal
  /** Between two answers (default 3000 ms; the route itself asks PayLater at most every few seconds). */
  intervalMs?: number
  /** After failures the wait doubles from 2 × intervalMs up to this (default 30000 ms). */
  maxBackoffMs?: number
  /** After a `paid_not_placed` still `retrying`: the interval, and how long it is watched (default NOT_PLACED_WATCH). */
  notPlacedWatch?: { intervalMs: number; forMs: number }
}

/** Resolves after `ms`, or at once when `wake` is called or the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined, setWake: (wake: (() => void) | null) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener("abort", done)
      setWake(null)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener("abort", done, { once: true })
    setWake(done)
  })
}

/** The wait before the next try: the interval after an answer, doubling after each failure. */
export function nextDelay(failures: number, intervalMs: number, maxBackoffMs: number): number {
  return failures === 0 ? intervalMs : Math.min(intervalMs * 2 ** failures, maxBackoffMs)
}

/**
 * Polls a Request to Pay until it reaches a final state, which it returns; null when the signal
 * aborted first. After a `paid_not_placed` that is still `retrying` it keeps asking, slowly
 * (`notPlacedWatch`), and returns `paid` when a later try placed the order, or the last
 * `paid_not_placed` once the store stopped retrying or the watch is over. `onState` gets every answer; `onConnection(false)` when a poll failed (polling goes
 * on: show a notice, not an error page) and `onConnection(true)` once one succeeds again. In a
 * browser it checks at once when the tab becomes visible again (the shopper is back from the
 * PayLater app on the same phone).
 */
export async function pollRequestToPay(
  sdk: PayLaterSdk,
  sessionId: string,
  handlers: { onState?: (state: RequestToPayState) => void; onConnection?: (ok: boolean) => void } & PollOptions = {}
): Promise<RequestToPayState | null> {
  const { signal, intervalMs = 3000, maxBackoffMs = 30000, notPlacedWatch = NOT_PLACED_WATCH } = handlers
  let wake: (() => void) | null = null
  const onVisible = () => {
    if (typeof document !== "undefined" && document.visibilityState === "visible") wake?.()
  }
  if (typeof document !== "undefined") document.addEventListener("visibilitychange", onVisible)
  let failures = 0
  // Since the store's first "paid, not placed, retrying" (null before): the slow watch, which ends
  // with the last such answer whatever comes meanwhile (a "processing" while a try runs, failed polls).
  let notPlacedSince: number | null = null
  let notPlaced: RequestToPayState | null = null
  try {
    while (!signal?.aborted) {
      try {
        const state = await fetchRequestToPayState(sdk, sessionId, signal)
        if (signal?.aborted) return null
        if (failures > 0) handlers.onConnection?.(true)
        failures = 0
        handlers.onState?.(state)
        if (isFinalState(state)) return state
        if (state.status === "paid_not_placed") {
          notPlacedSince ??= Date.now()
          notPlaced = state
        }
      } catch {
        if (signal?.aborted) return null
        failures += 1
        handlers.onConnection?.(false)
      }
      if (notPlaced && notPlacedSince !== null && Date.now() - notPlacedSince >= notPlacedWatch.forMs) return notPlaced
      const every = notPlacedSince === null ? intervalMs : notPlacedWatch.intervalMs
      await pause(nextDelay(failures, every, Math.max(every, maxBackoffMs)), signal, (w) => (wake = w))
    }
    return null
  } finally {
    if (typeof document !== "undefined") document.removeEventListener("visibilitychange", onVisible)
  }
}

export type PendingOutcome =
  | { kind: "order"; orderId: string }
  | { kind: "failed"; reason: string }
  /** The cart does not exist (any more). */
  | { kind: "missing" }
  /** Still undecided after `giveUpAfterMs`: offer a "check again" button. */
  | { kind: "gave_up" }

/**
 * One check for the pending page: completing the cart is Medusa's own step and safe to repeat; a
 * failure's reason is the store's answer (the status route, from its records), never the session's
 * data.
 */
export async function checkPendingOrder(sdk: PayLaterSdk, cartId: string): Promise<PendingOutcome | null> {
  const result = (await sdk.store.cart.complete(cartId).catch(() => null)) as { type?: string; order?: { id: string } } | null
  if (result?.type === "order" && result.order) return { kind: "order", orderId: result.order.id }
  let cart: any
  try {
    cart = (await sdk.store.cart.retrieve(cartId, { fields: "id,*payment_collection,*payment_collection.payment_sessions" })).cart
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return { kind: "missing" }
    throw error
  }
  const session = payLaterSessionOf(cart)
  if (!session) return { kind: "failed", reason: "error" }
  const state = await fetchRequestToPayState(sdk, session.id)
  switch (state.status) {
    case "paid":
      return { kind: "order", orderId: state.order_id }
    case "declined":
    case "expired":
    case "paid_not_placed":
      return { kind: "failed", reason: state.status }
    case "gone":
      return { kind: "failed", reason: "error" }
    default:
      return null
  }
}

/**
 * The pending page's wait: checks with growing pauses (2 s up to 15 s) until the order exists, the
 * payment failed, the cart is gone, or `giveUpAfterMs` (default 10 minutes) passed. Network errors
 * are not answers: it keeps waiting. Null when the signal aborted.
 */
export async function waitForPendingOrder(
  sdk: PayLaterSdk,
  cartId: string,
  options: { signal?: AbortSignal; giveUpAfterMs?: number; delaysMs?: number[] } = {}
): Promise<PendingOutcome | null> {
  const { signal, giveUpAfterMs = 10 * 60_000, delaysMs = [2000, 2000, 3000, 5000, 8000, 15000] } = options
  const started = Date.now()
  for (let attempt = 0; !signal?.aborted; attempt++) {
    const outcome = await checkPendingOrder(sdk, cartId).catch(() => null)
    if (signal?.aborted) return null
    if (outcome) return outcome
    if (Date.now() - started >= giveUpAfterMs) return { kind: "gave_up" }
    await pause(delaysMs[Math.min(attempt, delaysMs.length - 1)], signal, () => undefined)
  }
  return null
}


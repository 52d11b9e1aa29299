/**
 * PayLater Request to Pay, from the storefront's side (provider `pp_paylater-rtp_paylater`).
 *
 * The shopper types the mobile number of their PayLater account, PayLater pushes a payment request
 * to their PayLater app, they approve it there, and the plugin places the order when PayLater's
 * webhook arrives. The storefront does three things, all in this file:
 *
 *   1. `sendRequestToPay`: create the payment session with `data: { mobile_number }` (one SDK call).
 *      The number is checked and sent by the plugin; a refusal comes back as an error with a message
 *      for the shopper, sorted by `startErrorOf`.
 *   2. `watchRequestToPay`: the waiting screen polls the plugin's store route
 *      `GET /store/paylater/payment-sessions/:id` every 3 seconds (slower after network errors, at
 *      once when the tab becomes visible again) until the request is paid, declined or expired.
 *   3. On `paid`, go to the order: the webhook has already completed the cart. Never call
 *      `sdk.store.cart.complete` yourself for Request to Pay.
 *
 * The storefront never decides that a payment succeeded: the state comes from the server, which
 * asks PayLater. The full mobile number is never stored on the server (the session keeps
 * `mobile_number_masked`, e.g. "974*****021").
 *
 * The screens built on this are in ../pages/request-to-pay.ts.
 */
import type { HttpTypes } from "@medusajs/types"
import type { Sdk } from "../store"

/** `pp_<provider identifier>_<id in medusa-config>`, as Medusa names payment providers. */
export const PAYLATER_RTP_PROVIDER_ID = "pp_paylater-rtp_paylater"

/** Whether the cart's region offers Request to Pay (a merchant enables it per region in the admin). */
export async function isRequestToPayOffered(sdk: Sdk, regionId: string): Promise<boolean> {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: regionId })
  return payment_providers.some((p) => p.id === PAYLATER_RTP_PROVIDER_ID)
}

/* ---------------------------------------------------------------------------------------------
 * 1. Send the request
 * ------------------------------------------------------------------------------------------- */

/** The public data the plugin keeps on a Request to Pay session (nothing secret, safe to show). */
export interface RequestToPaySessionData {
  /** "974*****021": show it on the waiting screen. */
  mobile_number_masked?: string
  /** ISO instant the request stops being payable. */
  expires_at?: string
  /** What PayLater was asked for, two decimals, e.g. "360.00". */
  amount?: string
  /** The reference the shopper sees next to the request in the PayLater app. */
  paylater_order_id?: string
  /** How long the request stays payable, in minutes (the plugin's `requestToPayExpiryMinutes`). */
  paylater_expiry_minutes?: number
}

/**
 * Pushes a payment request for the cart's total to the PayLater app of `mobileNumber` and returns
 * the new payment session. Each call makes a new session (Medusa replaces the previous one), which
 * is what "try again" and "send a new request" need.
 *
 * `mobileNumber` is sent as typed: the plugin accepts "5111 8021", "+974 5111 8021",
 * "0097451118021"... and answers a malformed number with a message meant for the shopper.
 *
 * The cart must already have its email, address and shipping method: a later change to the cart
 * changes its total, and Medusa then drops the session.
 */
export async function sendRequestToPay(
  sdk: Sdk,
  cart: HttpTypes.StoreCart,
  mobileNumber: string
): Promise<HttpTypes.StorePaymentSession> {
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: PAYLATER_RTP_PROVIDER_ID,
    data: { mobile_number: mobileNumber },
  })
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === PAYLATER_RTP_PROVIDER_ID)
  if (!session) throw new Error("PayLater did not confirm the request. Please try again.")
  return session
}

/** The session's public data, typed. */
export function requestToPayData(session: HttpTypes.StorePaymentSession | undefined): RequestToPaySessionData {
  const data = (session?.data ?? {}) as Record<string, unknown>
  const text = (key: keyof RequestToPaySessionData) => (typeof data[key] === "string" ? (data[key] as string) : undefined)
  return {
    mobile_number_masked: text("mobile_number_masked"),
    expires_at: text("expires_at"),
    amount: text("amount"),
    paylater_order_id: text("paylater_order_id"),
    paylater_expiry_minutes: typeof data.paylater_expiry_minutes === "number" ? data.paylater_expiry_minutes : undefined,
  }
}

/**
 * Why a request could not be sent, sorted by what the shopper can do about it:
 *  - `refused`: the details were refused (HTTP 400), e.g. "The mobile number must be a Qatar mobile
 *    number…" or an order amount outside PayLater's range. Show the message; let them correct it.
 *  - `try_later`: PayLater could not deliver the request now (HTTP 422, e.g. the number has no
 *    PayLater account), or did not confirm it (5xx). Show the message; the same or another number
 *    may be tried again later, or another payment method.
 *  - `network`: the store did not answer at all.
 *
 * The plugin also sets a machine-readable `code` on these errors (`paylater_rtp_try_later`…), but
 * the JS SDK's `FetchError` keeps only the message and the HTTP status, so the status is what a
 * storefront using the SDK branches on.
 */
export interface RequestToPayStartError {
  kind: "refused" | "try_later" | "network"
  message: string
}

export function startErrorOf(error: unknown): RequestToPayStartError {
  const status = (error as { status?: unknown } | null)?.status
  const message = error instanceof Error && error.message ? error.message : ""
  if (typeof status !== "number") {
    return { kind: "network", message: "We could not reach the store. Check your connection and try again." }
  }
  if (status >= 400 && status < 500 && status !== 422) {
    return { kind: "refused", message: message || "PayLater could not accept these details." }
  }
  return {
    kind: "try_later",
    message: message || "PayLater could not send the request right now. Please try again in a few minutes.",
  }
}

/* ---------------------------------------------------------------------------------------------
 * 2. Follow the request: the waiting screen's data
 * ------------------------------------------------------------------------------------------- */

/** What `GET /store/paylater/payment-sessions/:id` answers (see docs/request-to-pay.md). */
export type RequestToPayState =
  /** In the shopper's app; `seconds_left` may reach 0 shortly before PayLater confirms `expired`. */
  | { status: "waiting"; seconds_left: number; expires_at: string | null }
  /** Approved; the order is being placed. Keep polling. */
  | { status: "processing" }
  | { status: "paid"; order_id: string }
  | { status: "declined" }
  | { status: "expired" }
  /** PayLater took the money but the order could not be placed: it will be refunded. Final. */
  | { status: "paid_not_placed" }
  /** Storefront-side: the route answered 404. The session was replaced (a newer request or another payment method). */
  | { status: "gone" }

/** One look at the request. Throws on network and server errors (the caller keeps polling). */
export async function fetchRequestToPayState(sdk: Sdk, sessionId: string): Promise<RequestToPayState> {
  try {
    // `sdk.client.fetch` adds the publishable key and parses the JSON; the route sends no-store.
    return await sdk.client.fetch<RequestToPayState>(`/store/paylater/payment-sessions/${encodeURIComponent(sessionId)}`)
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return { status: "gone" }
    throw error
  }
}

/** Final states: nothing more will happen to this request. */
export function isFinal(state: RequestToPayState): boolean {
  return ["paid", "declined", "expired", "gone", "paid_not_placed"].includes(state.status)
}

/** The interval the plugin's docs suggest; the route itself asks PayLater at most every 5 s. */
const POLL_MS = 3_000
/** After failed polls: 6 s, 12 s, 24 s, then every 30 s, until the store answers again. */
const MAX_BACKOFF_MS = 30_000

export interface RequestToPayWatcher {
  /** Stops polling (e.g. when the shopper leaves the screen). */
  stop(): void
}

/**
 * Polls the request until it reaches a final state. `onState` gets every answer; `onConnection`
 * gets `false` when a poll failed (network down, server error) and `true` once one succeeds again:
 * polling goes on quietly in between, so show a notice, not an error page.
 *
 * When the tab becomes visible again (the shopper is back from the PayLater app on the same phone),
 * it checks at once instead of waiting for the next tick.
 */
export function watchRequestToPay(
  sdk: Sdk,
  sessionId: string,
  handlers: { onState: (state: RequestToPayState) => void; onConnection: (ok: boolean) => void }
): RequestToPayWatcher {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  let inFlight = false

  const schedule = (ms: number) => {
    clearTimeout(timer)
    if (!stopped) timer = setTimeout(check, ms)
  }

  async function check(): Promise<void> {
    if (stopped || inFlight) return
    inFlight = true
    try {
      const state = await fetchRequestToPayState(sdk, sessionId)
      if (stopped) return
      if (failures > 0) handlers.onConnection(true)
      failures = 0
      handlers.onState(state)
      if (isFinal(state)) stop()
      else schedule(POLL_MS)
    } catch {
      if (stopped) return
      failures += 1
      handlers.onConnection(false)
      schedule(Math.min(POLL_MS * 2 ** failures, MAX_BACKOFF_MS))
    } finally {
      inFlight = false
    }
  }

  const onVisible = () => {
    if (document.visibilityState === "visible") schedule(0)
  }
  function stop(): void {
    stopped = true
    clearTimeout(timer)
    document.removeEventListener("visibilitychange", onVisible)
  }

  document.addEventListener("visibilitychange", onVisible)
  schedule(0)
  return { stop }
}

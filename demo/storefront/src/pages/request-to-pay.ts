/**
 * The Request to Pay screens, built on the plugin's storefront kit (`medusa-payment-paylater-storefront`):
 *
 *  - `requestToPayOption`: the checkout's "Pay with the PayLater app" option, a mobile number field.
 *  - `/checkout/request-to-pay?cart_id=…&session_id=…` (`renderRequestToPayWaiting`): the waiting
 *    screen. It is a page of its own so a reload, or a phone that dropped the tab while the shopper
 *    was in the PayLater app, comes back to the same request.
 */
import type { HttpTypes } from "@medusajs/types"
import {
  pollRequestToPay,
  requestToPayData,
  SHOPPER_MESSAGES,
  startRequestToPay,
  toCheckoutError,
  type CheckoutErrorKind,
  type RequestToPayState,
} from "medusa-payment-paylater-storefront"
import { cartSummary } from "../cart-summary"
import { readConfig } from "../config"
import type { PageContext } from "../router"
import { cartStorage, retrieveCart, type Sdk } from "../store"
import { busy, h, money, showPage } from "../ui"
import { cartNotFound } from "./checkout"

export const WAITING_SCREEN_PATH = "/checkout/request-to-pay"

export function waitingScreenUrl(cartId: string, sessionId: string): string {
  return `${WAITING_SCREEN_PATH}?${new URLSearchParams({ cart_id: cartId, session_id: sessionId })}`
}

/**
 * The number as the shopper typed it, kept for this tab only (sessionStorage), so "try again" does
 * not make them type it again. The server never keeps it: the session holds only the masked form.
 */
const MOBILE_KEY = "paylater-demo:rtp-mobile"
const typedMobile = {
  get: (): string => sessionStorage.getItem(MOBILE_KEY) ?? "",
  set: (value: string): void => sessionStorage.setItem(MOBILE_KEY, value),
  clear: (): void => sessionStorage.removeItem(MOBILE_KEY),
}

/* ---------------------------------------------------------------------------------------------
 * The mobile number field (checkout, and "try again" on the waiting screen)
 * ------------------------------------------------------------------------------------------- */

interface MobileFieldOptions {
  /** Prefix of the elements' ids: `${id}-mobile`, `${id}-send`, `${id}-error`. */
  id: string
  buttonLabel: string
  initial?: string
  /** Sends the request; false when nothing was sent (e.g. the checkout form is incomplete). */
  send: (mobileNumber: string) => Promise<boolean>
}

/**
 * A div, not a form: on the checkout it sits inside the checkout form, whose submit button is the
 * payment link. Enter in the field therefore sends the request itself instead of submitting.
 */
function mobileField({ id, buttonLabel, initial, send }: MobileFieldOptions): HTMLElement {
  const input = h("input", {
    id: `${id}-mobile`,
    name: "paylater_mobile_number",
    type: "tel",
    inputmode: "tel",
    autocomplete: "tel",
    placeholder: "5111 8021",
    value: initial ?? "",
    "aria-describedby": `${id}-hint ${id}-error`,
  })
  const button = h("button", { type: "button", id: `${id}-send` }, buttonLabel)
  const error = h("div", { id: `${id}-error`, class: "alert error", role: "alert" })

  const showError = (problem: { kind: CheckoutErrorKind; message: string } | null) => {
    input.toggleAttribute("aria-invalid", problem?.kind === "refused")
    if (!problem) {
      error.replaceChildren()
      delete error.dataset.kind
      return
    }
    // "Try again later" is not the shopper's mistake: a calmer box, with a title saying so.
    error.className = `alert ${problem.kind === "refused" ? "error" : "warning"}`
    error.dataset.kind = problem.kind
    error.replaceChildren(
      ...(problem.kind === "try_later" ? [h("strong", {}, "PayLater can't take this request right now"), h("br")] : []),
      problem.message
    )
  }

  const submit = async () => {
    if (button.disabled) return
    showError(null)
    const mobile = input.value.trim()
    if (!mobile) {
      showError({ kind: "refused", message: "Enter the mobile number of your PayLater account, e.g. 5111 8021." })
      input.focus()
      return
    }
    const done = busy(button, "Sending the request…")
    try {
      if (await send(mobile)) return // the page is being replaced by the waiting screen
    } catch (e) {
      showError(toCheckoutError(e))
    }
    done()
  }
  button.addEventListener("click", () => void submit())
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault()
      void submit()
    }
  })

  return h(
    "div",
    { class: "rtp-field" },
    h("label", { for: input.id }, "PayLater mobile number"),
    h("div", { class: "rtp-input-row" }, input, button),
    h("p", { id: `${id}-hint`, class: "hint" }, "Your Qatar mobile number, e.g. 5111 8021 or +974 5111 8021."),
    error
  )
}

/* ---------------------------------------------------------------------------------------------
 * The checkout option
 * ------------------------------------------------------------------------------------------- */

/**
 * Fills the PayLater number from the delivery address's mobile, and keeps following it until the
 * shopper types a PayLater number of their own.
 */
export function prefillFromPhone(form: HTMLElement): void {
  const phone = form.querySelector<HTMLInputElement>("#phone")
  const mobile = form.querySelector<HTMLInputElement>("#paylater-rtp-mobile")
  if (!phone || !mobile) return
  let own = mobile.value !== "" && mobile.value !== phone.value
  if (!mobile.value) mobile.value = phone.value
  mobile.addEventListener("input", () => {
    own = mobile.value !== ""
  })
  phone.addEventListener("input", () => {
    if (!own) mobile.value = phone.value
  })
}

/** Demo only: the sandbox's test shoppers, whose number and email PayLater's look-up knows. */
function sandboxShopperHint(): HTMLElement | null {
  if (!readConfig().paylaterSandboxUrl) return null
  return h(
    "p",
    { class: "hint", id: "rtp-sandbox-shoppers" },
    "Sandbox: use 5111 8021 with the email shopper1@sandbox.paylater.test (5111 8022 … 8025 with shopper2 … shopper5; shopper5 has only 250 QAR of spending room)."
  )
}

export interface RequestToPayOptionContext {
  sdk: Sdk
  /** Checks the checkout form (showing the browser's hints) and saves it to the cart; null when incomplete. */
  prepareCart: () => Promise<HttpTypes.StoreCart | null>
}

export function requestToPayOption({ sdk, prepareCart }: RequestToPayOptionContext): HTMLElement {
  return h(
    "div",
    { class: "pay-option", id: "paylater-request-to-pay" },
    h("h3", {}, "Pay with the PayLater app (Request to Pay)"),
    h("p", { class: "muted" }, "We send the payment request to the PayLater app on your phone. Approve it there; this page follows along."),
    sandboxShopperHint(),
    mobileField({
      id: "paylater-rtp",
      buttonLabel: "Send the request to my app",
      initial: typedMobile.get(),
      send: async (mobile) => {
        const cart = await prepareCart()
        if (!cart) return false
        // The plugin looks the shopper up first (this number + the cart's email): no PayLater
        // account or too little spending room is refused here, before anything reaches the phone.
        const { session } = await startRequestToPay(sdk, cart, { mobileNumber: mobile })
        typedMobile.set(mobile)
        window.location.assign(waitingScreenUrl(cart.id, session.id))
        return true
      },
    })
  )
}

/* ---------------------------------------------------------------------------------------------
 * The waiting screen
 * ------------------------------------------------------------------------------------------- */

/** "14:05" */
function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`
}

/** Demo only: the sandbox's stand-in for the phone app, opened on the number typed in this tab. */
function sandboxAppUrl(sandboxUrl: string, typed: string): string {
  const digits = typed.replace(/\D/g, "").replace(/^00/, "")
  const mobile = /^[3567]\d{7}$/.test(digits) ? `974${digits}` : /^974[3567]\d{7}$/.test(digits) ? digits : null
  return `${sandboxUrl}/app${mobile ? `?${new URLSearchParams({ mobile })}` : ""}`
}

function sandboxHelper(maskedNumber: string): HTMLElement | null {
  const { paylaterSandboxUrl } = readConfig()
  if (!paylaterSandboxUrl) return null
  return h(
    "aside",
    { class: "card sandbox-helper", id: "rtp-sandbox-helper", "aria-labelledby": "rtp-sandbox-title" },
    h("p", { class: "sandbox-label" }, "Sandbox helper · demo only"),
    h("h2", { id: "rtp-sandbox-title" }, "No phone? Approve in the sandbox"),
    h("p", {}, `The local PayLater sandbox has a stand-in for the shopper's app. Open it for ${maskedNumber} in another tab, then approve or decline the request there.`),
    h(
      "p",
      {},
      h(
        "a",
        { class: "button secondary", id: "rtp-sandbox-app", href: sandboxAppUrl(paylaterSandboxUrl, typedMobile.get()), target: "_blank", rel: "noopener" },
        "Open the sandbox app ↗"
      )
    ),
    h("p", { class: "hint" }, "A real store does not show this: the shopper approves on their own phone.")
  )
}

const TITLES: Record<RequestToPayState["status"], string> = {
  waiting: "Approve the request in your PayLater app",
  processing: "Payment approved",
  paid: "Payment approved",
  declined: "The payment was declined",
  expired: "The request expired",
  gone: "This request is no longer active",
  paid_not_placed: "Your payment was received, but the order could not be placed",
}

export async function renderRequestToPayWaiting({ sdk, query }: PageContext): Promise<void> {
  const cartId = query.get("cart_id")
  const sessionId = query.get("session_id")
  const cart = cartId && sessionId ? await retrieveCart(sdk, cartId).catch(() => null) : null
  if (!cart || !sessionId) return cartNotFound()
  cartStorage.set(cart.id)

  const data = requestToPayData(cart.payment_collection?.payment_sessions?.find((s) => s.id === sessionId))
  const masked = data.mobile_number_masked ?? "your number"
  const amount = money(data.amount ? Number(data.amount) : cart.total, cart.currency_code)
  const expirySeconds = (data.paylater_expiry_minutes ?? 15) * 60
  const checkoutUrl = `/checkout?cart_id=${encodeURIComponent(cart.id)}`

  // --- the elements; `show()` below switches them per state ---
  const title = h("h1", { id: "rtp-title", tabindex: -1 }, TITLES.waiting)
  const countdown = h("span", { id: "rtp-countdown", class: "rtp-clock", role: "timer" }, "–:––")
  const ring = h("div", { class: "rtp-ring" }, h("div", { class: "rtp-ring-inner" }, countdown, h("span", { class: "rtp-ring-label" }, "left to approve")))
  const status = h("p", { id: "rtp-status", role: "status", class: "rtp-status" })
  const connection = h(
    "p",
    { id: "rtp-connection", class: "alert warning", hidden: true },
    "We can't reach the store right now. Still checking; nothing to do on your side."
  )
  const waitingInfo = h(
    "div",
    {},
    h(
      "ol",
      { class: "rtp-steps" },
      h("li", {}, "Open the PayLater app on your phone."),
      h("li", {}, `Find the request for ${amount}.`),
      h("li", {}, "Tap Approve. This page moves on by itself.")
    ),
    data.paylater_order_id ? h("p", { class: "hint" }, "Reference in the app: ", h("code", { id: "rtp-reference" }, data.paylater_order_id)) : null
  )
  const outcome = h("div", { id: "rtp-outcome", hidden: true })
  const leaveHint = h(
    "span",
    { class: "hint" },
    "A request you leave stays in the app until it expires; decline it there if you change your mind."
  )
  const otherMethod = h(
    "p",
    { class: "actions" },
    h("a", { class: "button secondary", id: "rtp-other-method", href: checkoutUrl }, "Pay another way"),
    leaveHint
  )
  const card = h(
    "section",
    { class: "card rtp-waiting", id: "rtp-waiting", "data-state": "waiting", "aria-labelledby": "rtp-title" },
    h(
      "div",
      { class: "rtp-head" },
      ring,
      h(
        "div",
        {},
        h("p", { class: "rtp-lead", id: "rtp-lead" }, "We sent a payment request for ", h("strong", {}, amount), " to the PayLater app on ", h("strong", { id: "rtp-masked" }, masked), "."),
        status
      )
    ),
    connection,
    waitingInfo,
    outcome,
    otherMethod
  )
  showPage(TITLES.waiting, title, h("div", { class: "layout" }, card, h("div", {}, sandboxHelper(masked), cartSummary(cart))))

  const setStatus = (text: string, spinning: boolean) => {
    if (status.textContent === text) return
    status.replaceChildren(...(spinning ? [h("span", { class: "spinner", "aria-hidden": "true" })] : []), text)
  }

  // --- the countdown: from the server's `seconds_left`, ticking locally between polls ---
  let deadline: number | null = null
  const tick = () => {
    if (deadline === null) return
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000))
    countdown.textContent = clock(left)
    ring.style.setProperty("--left", String(Math.min(1, left / expirySeconds)))
    if (left === 0) setStatus("Time is up. Checking with PayLater…", true)
  }
  const ticker = setInterval(tick, 1000)

  // A retry creates a new session for the same cart, then opens its own waiting screen.
  const retry = (label: string) =>
    mobileField({
      id: "rtp-retry",
      buttonLabel: label,
      initial: typedMobile.get(),
      send: async (mobile) => {
        const fresh = await retrieveCart(sdk, cart.id)
        const { session } = await startRequestToPay(sdk, fresh, { mobileNumber: mobile })
        typedMobile.set(mobile)
        window.location.replace(waitingScreenUrl(fresh.id, session.id))
        return true
      },
    })

  const ended = (message: string, retryLabel: string | null) => {
    clearInterval(ticker)
    deadline = null
    ring.hidden = true
    waitingInfo.hidden = true
    leaveHint.hidden = true
    status.replaceChildren()
    outcome.hidden = false
    outcome.replaceChildren(h("div", { class: "alert error", id: "rtp-message" }, message), ...(retryLabel ? [retry(retryLabel)] : []))
    // The shopper may have been looking at the app: bring them to what changed.
    title.focus()
  }

  let lastShown = ""
  const show = (state: RequestToPayState) => {
    // After "paid, not placed, retrying" the kit keeps asking (a later try may place the order): the
    // same answer again changes nothing on the page.
    const shown = JSON.stringify(state)
    if (state.status === "paid_not_placed" && shown === lastShown) return
    lastShown = shown
    card.dataset.state = state.status
    title.textContent = TITLES[state.status]
    document.title = `${TITLES[state.status]} · Majlis Store`
    switch (state.status) {
      case "waiting": {
        // Follow the server's clock, but do not make the countdown jump for a second of latency.
        const next = Date.now() + state.seconds_left * 1000
        if (deadline === null || Math.abs(next - deadline) > 1500) deadline = next
        if (state.seconds_left > 0) setStatus("Waiting for your approval…", true)
        tick()
        break
      }
      case "processing":
        clearInterval(ticker)
        ring.hidden = true
        waitingInfo.hidden = true
        otherMethod.hidden = true // paid already: another method would pay twice
        setStatus("Approved in the PayLater app. Placing your order…", true)
        break
      case "paid":
        clearInterval(ticker)
        setStatus("Your order is placed. Opening your confirmation…", true)
        typedMobile.clear()
        // `replace`: the back button should not return to a finished waiting screen.
        window.location.replace(`/order/confirmed/${encodeURIComponent(state.order_id)}`)
        break
      case "declined":
        ended("The request was declined, so nothing was charged. You can send a new request, or pay another way.", "Try again")
        break
      case "expired":
        ended("The request was not approved in time, so nothing was charged. Send a new request to pay with the PayLater app.", "Send a new request")
        break
      case "gone":
        ended("A newer request or another payment method has replaced it. Go back to the checkout to see how this order will be paid.", null)
        break
      case "paid_not_placed":
        otherMethod.hidden = true // paid already: another method would pay twice
        ended(SHOPPER_MESSAGES[state.retrying ? "rtp_paid_not_placed_retrying" : "rtp_paid_not_placed"].en, null)
        break
    }
  }

  setStatus("Waiting for your approval…", true)
  void pollRequestToPay(sdk, sessionId, {
    onState: show,
    onConnection: (ok) => {
      connection.hidden = ok
    },
  })
}

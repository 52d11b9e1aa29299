"use client"

import { useState, type ReactNode } from "react"
import { startLinkCheckout } from "../checkout"
import { toCheckoutError, type PayLaterCheckoutError } from "../errors"
import { placedOrderOf, type PlacedOrder } from "../placed"
import type { CartLike, PayLaterSdk } from "../sdk"
import { cx, dirOf, label, type StyleProps } from "./shared"

export type PayLaterButtonProps = StyleProps<"button" | "error"> & {
  sdk: PayLaterSdk
  cart: CartLike
  /**
   * Runs first, e.g. to save the checkout form to the cart (the payment is for the cart's final
   * total). Return the updated cart, or null to stop (the form is incomplete).
   */
  prepareCart?: () => Promise<CartLike | null>
  /** Only for the optional look-up before links (`eligibilityCheck: "all"`). */
  mobileNumber?: string
  /**
   * Default: `window.location.replace(url)`: the review step of a cart being paid leaves the history,
   * so Back after paying never returns to a checkout whose cart is now an order. Next.js may pass
   * `(url) => router.replace(url)`.
   */
  navigate?: (url: string) => void
  onError?: (error: PayLaterCheckoutError) => void
  /**
   * The cart is already an order (PayLater's webhook placed it, or an earlier payment was found
   * paid): called with the order while its message shows (the button stays busy). Lead the
   * shopper to it, e.g. with
   * `leaveForPlacedOrder(placed, { countryCode, forgetCart, navigate })`.
   */
  onPlaced?: (placed: PlacedOrder) => void
  disabled?: boolean
  children?: ReactNode
  id?: string
}

/** "Pay with PayLater": creates the session and sends the shopper to PayLater's hosted page. */
export function PayLaterButton(props: PayLaterButtonProps) {
  const { sdk, cart, prepareCart, mobileNumber, navigate, onError, onPlaced, disabled, locale, className, classNames, children, id } = props
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<PayLaterCheckoutError | null>(null)

  const start = async () => {
    setBusy(true)
    setError(null)
    try {
      const ready = prepareCart ? await prepareCart() : cart
      if (!ready) {
        setBusy(false)
        return
      }
      const { url } = await startLinkCheckout(sdk, ready, { mobileNumber })
      ;(navigate ?? ((to: string) => window.location.replace(to)))(url)
      // Still busy: the page is being replaced by PayLater's.
    } catch (e) {
      const failure = toCheckoutError(e)
      setError(failure)
      const placed = placedOrderOf(failure)
      // Leading to the order: still busy, no second click.
      if (!(placed && onPlaced)) setBusy(false)
      onError?.(failure)
      if (placed && onPlaced) onPlaced(placed)
    }
  }

  return (
    <div className={cx("paylater-button", className)} dir={dirOf(locale)} lang={locale ?? "en"}>
      <button
        type="button"
        id={id}
        className={cx("paylater-button-action", classNames?.button)}
        disabled={disabled || busy}
        aria-busy={busy}
        onClick={() => void start()}
      >
        {busy ? label("redirecting", locale) : children ?? label("payButton", locale)}
      </button>
      {error ? (
        <p role="alert" className={cx("paylater-error", classNames?.error)} data-kind={error.kind} data-code={error.code}>
          {error.messageIn(locale ?? "en")}
        </p>
      ) : null}
    </div>
  )
}

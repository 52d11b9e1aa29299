"use client"

import { useId, useState } from "react"
import { startRequestToPay, suggestedMobileNumber, type StartedRequestToPay } from "../checkout"
import { toCheckoutError, type PayLaterCheckoutError } from "../errors"
import { placedOrderOf, type PlacedOrder } from "../placed"
import type { CartLike, PayLaterSdk } from "../sdk"
import { cx, dirOf, label, type StyleProps } from "./shared"

export type RequestToPayFormProps = StyleProps<"label" | "input" | "button" | "hint" | "error"> & {
  sdk: PayLaterSdk
  cart: CartLike
  /** Default: the shipping address's phone. */
  defaultMobileNumber?: string
  /** Runs first (e.g. save the checkout form); return the updated cart, or null to stop. */
  prepareCart?: () => Promise<CartLike | null>
  /** The request is in the shopper's app: show the waiting screen (e.g. navigate to it). */
  onStarted: (started: StartedRequestToPay, mobileNumber: string) => void
  onError?: (error: PayLaterCheckoutError) => void
  /**
   * The cart is already an order (PayLater's webhook placed it, or an earlier payment was found
   * paid): called with the order while its message shows (the button stays busy). Lead the
   * shopper to it, e.g. with
   * `leaveForPlacedOrder(placed, { countryCode, forgetCart, navigate })`.
   */
  onPlaced?: (placed: PlacedOrder) => void
  buttonLabel?: string
  /** Prefix of the elements' ids: `${idPrefix}-mobile`, `${idPrefix}-send`, `${idPrefix}-error`. */
  idPrefix?: string
}

/**
 * The Request to Pay option: the shopper's PayLater mobile number and a button. A div, not a form,
 * so it can sit inside a checkout form whose submit button does something else; Enter sends.
 */
export function RequestToPayForm(props: RequestToPayFormProps) {
  const { sdk, cart, prepareCart, onStarted, onError, onPlaced, locale, className, classNames, buttonLabel } = props
  const generated = useId()
  const prefix = props.idPrefix ?? `paylater-rtp-${generated.replace(/[^a-zA-Z0-9_-]/g, "")}`
  const [mobile, setMobile] = useState(props.defaultMobileNumber ?? suggestedMobileNumber(cart))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ kind: string; code: string; text: string } | null>(null)

  const send = async () => {
    if (busy) return
    setError(null)
    const typed = mobile.trim()
    if (!typed) {
      setError({ kind: "refused", code: "invalid_mobile", text: label("enterMobile", locale) })
      return
    }
    setBusy(true)
    try {
      const ready = prepareCart ? await prepareCart() : cart
      if (!ready) {
        setBusy(false)
        return
      }
      onStarted(await startRequestToPay(sdk, ready, { mobileNumber: typed }), typed)
    } catch (e) {
      const failure = toCheckoutError(e)
      setError({ kind: failure.kind, code: failure.code, text: failure.messageIn(locale ?? "en") })
      const placed = placedOrderOf(failure)
      // Leading to the order: still busy, no second send.
      if (!(placed && onPlaced)) setBusy(false)
      onError?.(failure)
      if (placed && onPlaced) onPlaced(placed)
    }
  }

  return (
    <div className={cx("paylater-rtp-form", className)} dir={dirOf(locale)} lang={locale ?? "en"}>
      <label htmlFor={`${prefix}-mobile`} className={cx("paylater-rtp-label", classNames?.label)}>
        {label("mobileLabel", locale)}
      </label>
      <input
        id={`${prefix}-mobile`}
        name="paylater_mobile_number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="5111 8021"
        dir="ltr"
        value={mobile}
        onChange={(e) => setMobile(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault()
            void send()
          }
        }}
        aria-invalid={error?.kind === "refused" ? true : undefined}
        aria-describedby={`${prefix}-hint ${prefix}-error`}
        className={cx("paylater-rtp-input", classNames?.input)}
      />
      {/* Under the field it explains, before the button. */}
      <p id={`${prefix}-hint`} className={cx("paylater-hint", classNames?.hint)}>
        {label("mobileHint", locale)}
      </p>
      <button
        type="button"
        id={`${prefix}-send`}
        disabled={busy}
        aria-busy={busy}
        onClick={() => void send()}
        className={cx("paylater-rtp-send", classNames?.button)}
      >
        {busy ? label("sending", locale) : buttonLabel ?? label("sendRequest", locale)}
      </button>
      <p
        id={`${prefix}-error`}
        role="alert"
        className={cx("paylater-error", classNames?.error)}
        data-kind={error?.kind}
        data-code={error?.code}
        hidden={!error}
      >
        {error?.text}
      </p>
    </div>
  )
}

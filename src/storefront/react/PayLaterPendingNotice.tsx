"use client"

import { useEffect, useState } from "react"
import { SHOPPER_MESSAGES } from "../messages"
import { waitForPendingOrder, type PendingOutcome } from "../poll"
import type { PayLaterSdk } from "../sdk"
import { cx, dirOf, label, type StyleProps } from "./shared"

export type PayLaterPendingNoticeProps = StyleProps<"status" | "button"> & {
  sdk: PayLaterSdk
  cartId: string
  /** The order exists: go to its confirmation. */
  onOrder: (orderId: string) => void
  /** The payment failed: back to the checkout with the reason (e.g. `?paylater_error=${reason}`). */
  onFailed: (reason: string) => void
  giveUpAfterMs?: number
}

/**
 * The pending page's body: PayLater has not decided yet. Waits for the order by completing the cart
 * (Medusa's own step, safe to repeat) and hands over to onOrder / onFailed; after `giveUpAfterMs`
 * it stops and offers "Check again".
 */
export function PayLaterPendingNotice(props: PayLaterPendingNoticeProps) {
  const { sdk, cartId, onOrder, onFailed, giveUpAfterMs, locale, className, classNames } = props
  const lang = locale ?? "en"
  const [outcome, setOutcome] = useState<PendingOutcome | null>(null)
  const [round, setRound] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    setOutcome(null)
    void waitForPendingOrder(sdk, cartId, { signal: controller.signal, giveUpAfterMs }).then((result) => {
      if (!result || controller.signal.aborted) return
      setOutcome(result)
      if (result.kind === "order") onOrder(result.orderId)
      if (result.kind === "failed") onFailed(result.reason)
    })
    return () => controller.abort()
    // onOrder/onFailed are callbacks for the outcome, not inputs of the wait.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sdk, cartId, giveUpAfterMs, round])

  const state = outcome?.kind ?? "waiting"
  return (
    <div className={cx("paylater-pending", className)} data-state={state} dir={dirOf(locale)} lang={lang}>
      <p role="status" className={cx("paylater-pending-status", classNames?.status)}>
        {state === "missing" ? label("missingCart", locale) : state === "gave_up" ? label("gaveUp", locale) : SHOPPER_MESSAGES.pending[lang]}
      </p>
      {state === "gave_up" ? (
        <button type="button" className={cx("paylater-pending-again", classNames?.button)} onClick={() => setRound((n) => n + 1)}>
          {label("checkAgain", locale)}
        </button>
      ) : null}
    </div>
  )
}

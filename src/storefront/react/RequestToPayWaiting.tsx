"use client"

import { useEffect, useRef, useState, type ReactNode } from "react"
import { SHOPPER_MESSAGES } from "../messages"
import { pollRequestToPay, type RequestToPayState } from "../poll"
import type { PayLaterSdk } from "../sdk"
import { clock, cx, dirOf, label, LABELS, type StyleProps } from "./shared"

export type RequestToPayWaitingProps = StyleProps<"title" | "countdown" | "status" | "notice" | "message" | "retry"> & {
  sdk: PayLaterSdk
  sessionId: string
  /** "974*****021", from the session data (`requestToPayData(session).mobile_number_masked`). */
  maskedNumber: string
  /** Shown as is, e.g. "360.00 QAR". */
  amountText: string
  /** Paid and the order is placed: go to the confirmation (the webhook completed the cart). */
  onPaid: (orderId: string) => void
  /** Declined or expired: offered as a button; typically starts a new request (RequestToPayForm). */
  onRetry?: () => void
  /** Extra content under the waiting state (e.g. a sandbox helper in a demo). */
  children?: ReactNode
  pollIntervalMs?: number
}

const TITLE_KEYS: Record<RequestToPayState["status"], keyof typeof SHOPPER_MESSAGES> = {
  waiting: "rtp_waiting",
  processing: "rtp_processing",
  paid: "rtp_paid",
  declined: "rtp_declined",
  expired: "rtp_expired",
  gone: "rtp_gone",
  paid_not_placed: "rtp_paid_not_placed",
}

/** Headings of the ended states; the others are the state's own message. */
const ENDED_TITLES: Partial<Record<RequestToPayState["status"], keyof typeof LABELS>> = {
  declined: "declinedTitle",
  expired: "expiredTitle",
  gone: "goneTitle",
  paid_not_placed: "paidNotPlacedTitle",
}

/**
 * The waiting screen: the masked number, a countdown from the server's `seconds_left`, and the
 * outcome (paid → onPaid, declined or expired → a message and a retry). Polling stops when the
 * component unmounts. The store's state is the only truth: nothing here decides a payment.
 */
export function RequestToPayWaiting(props: RequestToPayWaitingProps) {
  const { sdk, sessionId, maskedNumber, amountText, onPaid, onRetry, locale, className, classNames, children, pollIntervalMs } = props
  const lang = locale ?? "en"
  const [state, setState] = useState<RequestToPayState | null>(null)
  const [connected, setConnected] = useState(true)
  const [deadline, setDeadline] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const paid = useRef(onPaid)
  paid.current = onPaid

  useEffect(() => {
    const controller = new AbortController()
    void pollRequestToPay(sdk, sessionId, {
      signal: controller.signal,
      intervalMs: pollIntervalMs,
      onConnection: setConnected,
      onState: (next) => {
        setState(next)
        if (next.status === "waiting") {
          const at = Date.now() + next.seconds_left * 1000
          // Follow the server's clock without jumping for a second of latency.
          setDeadline((current) => (current === null || Math.abs(current - at) > 1500 ? at : current))
        }
        if (next.status === "paid") paid.current(next.order_id)
      },
    })
    return () => controller.abort()
  }, [sdk, sessionId, pollIntervalMs])

  const status = state?.status ?? "waiting"
  const counting = status === "waiting" && deadline !== null
  useEffect(() => {
    if (!counting) return
    const ticker = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(ticker)
  }, [counting])

  const secondsLeft = deadline === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000))
  const ended = status === "declined" || status === "expired" || status === "gone" || status === "paid_not_placed"
  const endedTitle = ENDED_TITLES[status]
  const heading = endedTitle ? label(endedTitle, locale) : SHOPPER_MESSAGES[TITLE_KEYS[status]][lang]

  return (
    <section className={cx("paylater-rtp-waiting", className)} data-state={status} dir={dirOf(locale)} lang={lang} aria-live="polite">
      <h2 className={cx("paylater-rtp-title", classNames?.title)}>
        {heading}
      </h2>
      <p className="paylater-rtp-lead">
        {label("sentTo", locale, { amount: amountText, mobile: "\u0000" })
          .split("\u0000")
          .flatMap((part, i) => (i === 0 ? [part] : [<strong key="m" className="paylater-rtp-masked" dir="ltr">{maskedNumber}</strong>, part]))}
      </p>
      {status === "waiting" ? (
        <p className="paylater-rtp-clock">
          <span role="timer" className={cx("paylater-rtp-countdown", classNames?.countdown)}>
            {secondsLeft === null ? "–:––" : clock(secondsLeft)}
          </span>{" "}
          <span>{label("leftToApprove", locale)}</span>
        </p>
      ) : null}
      {!ended ? (
        <p role="status" className={cx("paylater-rtp-status", classNames?.status)}>
          {status === "waiting"
            ? secondsLeft === 0
              ? label("timeUp", locale)
              : label("waitingApproval", locale)
            : SHOPPER_MESSAGES.rtp_processing[lang]}
        </p>
      ) : null}
      {!connected ? (
        <p className={cx("paylater-notice", classNames?.notice)} data-kind="connection">
          {SHOPPER_MESSAGES.rtp_connection[lang]}
        </p>
      ) : null}
      {ended ? (
        <div className="paylater-rtp-outcome">
          <p role="alert" className={cx("paylater-error", classNames?.message)}>
            {SHOPPER_MESSAGES[state?.status === "paid_not_placed" && state.retrying ? "rtp_paid_not_placed_retrying" : TITLE_KEYS[status]][lang]}
          </p>
          {/* Paid already: a new request would take the money twice. */}
          {onRetry && status !== "gone" && status !== "paid_not_placed" ? (
            <button type="button" className={cx("paylater-rtp-retry", classNames?.retry)} onClick={onRetry}>
              {label("tryAgain", locale)}
            </button>
          ) : null}
        </div>
      ) : (
        children
      )}
    </section>
  )
}

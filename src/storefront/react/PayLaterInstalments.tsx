"use client"

import { useEffect, useState } from "react"
import { describeInstalments, fetchInstalments, type InstalmentOffer } from "../instalments"
import type { PayLaterSdk } from "../sdk"
import { cx, dirOf, type StyleProps } from "./shared"

export type PayLaterInstalmentsProps = StyleProps<"text" | "schedule"> & {
  sdk: PayLaterSdk
  /** Show the schedule (each instalment and when it falls due) under the sentence. */
  showSchedule?: boolean
  providerId?: string
} & ({ amount: string | number; cartId?: never } | { cartId: string; amount?: never })

/**
 * "4 payments of 90.00 QAR" for a product price or a cart (with its delivery), or the outlet's range
 * ("available for orders from 300 QAR") when PayLater cannot pay that amount. Renders nothing until
 * the store answers, and nothing if it cannot (a sentence of marketing is never worth an error).
 */
export function PayLaterInstalments(props: PayLaterInstalmentsProps) {
  const { sdk, amount, cartId, providerId, locale, showSchedule, className, classNames } = props
  const [offer, setOffer] = useState<InstalmentOffer | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    const query = cartId !== undefined ? { cartId } : { amount: amount as string | number }
    fetchInstalments(sdk, query, { providerId, signal: controller.signal })
      .then((answer) => {
        if (!controller.signal.aborted) setOffer(answer)
      })
      .catch(() => {
        if (!controller.signal.aborted) setOffer(null)
      })
    return () => controller.abort()
  }, [sdk, amount, cartId, providerId])

  if (!offer) return null
  const plan = offer.available ? offer.plans[0] : undefined
  return (
    <div
      className={cx("paylater-instalments", className)}
      data-available={offer.available ? "true" : "false"}
      dir={dirOf(locale)}
      lang={locale ?? "en"}
    >
      <p className={cx("paylater-instalments-text", classNames?.text)}>
        <span className="paylater-brand">PayLater</span> {describeInstalments(offer, locale)}
      </p>
      {showSchedule && plan ? (
        <ol className={cx("paylater-instalments-schedule", classNames?.schedule)}>
          {plan.instalments.map((i) => (
            <li key={i.number} data-due-after-days={i.due_after_days}>
              {i.amount} QAR
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  )
}

/**
 * "PayLater 4 payments of 90.00 QAR" under a price or in the checkout: the storefront kit's React
 * component, mounted into this plain-DOM demo (a React storefront renders it directly).
 */
import { createElement } from "react"
import { createRoot } from "react-dom/client"
import { PayLaterInstalments } from "medusa-payment-paylater-storefront/react"
import type { Sdk } from "../store"
import { h } from "../ui"

export interface InstalmentsLine {
  element: HTMLElement
  /** Asks again (e.g. the amount or the cart's delivery changed). */
  show(query: { amount: number } | { cartId: string }): void
}

export function instalmentsLine(sdk: Sdk, id: string): InstalmentsLine {
  const element = h("div", { id, class: "instalments" })
  const root = createRoot(element)
  let version = 0
  return {
    element,
    show(query) {
      version += 1
      // A new key makes the component fetch again for the same cart after the cart changed.
      root.render(createElement(PayLaterInstalments, { key: version, sdk, showSchedule: "cartId" in query, ...query }))
    },
  }
}

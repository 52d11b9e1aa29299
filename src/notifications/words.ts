/**
 * The words PayLater uses for what needs a person: Settings → PayLater, the order card and the
 * notifications Medusa's Notification Module shows the merchant (src/notifications) say the same
 * thing the same way, from here. Pure text (its one import is pure text too): the admin bundle imports it.
 */
import { PAID_WITHOUT_ORDER_LABEL } from "../words/payment-status"

/** What an item on Settings → PayLater's list is (its badge; a notification's title). */
export const ATTENTION_KIND_LABEL: Record<string, string> = {
  refund_outcome_unknown: "Refund outcome unknown",
  paid_without_order: PAID_WITHOUT_ORDER_LABEL,
  orphaned: "Paid after the cart changed",
  mismatch: "Store and PayLater disagree",
  settlement_failing: "Settlement keeps failing",
}

/** How an item may be resolved (its buttons). */
export const RESOLUTION_LABEL: Record<string, string> = {
  refunded: "PayLater refunded it",
  not_refunded: "PayLater did not refund it",
  resolved: "Mark resolved",
}

/** Settings → PayLater's warning while Medusa's scheduler does not run the PayLater jobs. */
export function schedulerStalledSentence(since: string): string {
  return (
    `Medusa's scheduler has not run the PayLater jobs since ${since}. A watchdog in the server runs them meanwhile; ` +
    "restart Medusa to register its scheduled jobs again (they are lost when Redis loses its data)."
  )
}

/** Titles of what is not one payment but the store's connection to PayLater. */
export const CONDITION_LABEL = {
  scheduler_stalled: "PayLater reconciliation stopped",
  webhooks_refused: "PayLater notifications refused",
  registration_removed: "PayLater registration removed",
} as const

export type ConditionKind = keyof typeof CONDITION_LABEL

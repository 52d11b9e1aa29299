import { setTimeout as sleep } from "node:timers/promises"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef } from "../lib/paylater"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { askPayLaterNow } from "../modules/paylater-ledger/attempt-state"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { storedAmountText } from "../providers/paylater/money"
import { flagPaidAttempt, flagPaidWithoutOrder, PAID_WITHOUT_ORDER_NEXT_STEP } from "../paid-without-order/listing"
import { paymentOfAttempt } from "../medusa-records/payment-attempt"
import { ownersOf } from "../medusa-records/owners"
import { registrationOfAttempt, warnUnroutedOnce } from "../medusa-records/registrations"
import type { SettleInput, Settlement } from "./settle"
import { takeStatusSlot } from "../medusa-effects/settlement-effects"
import { askPayLaterAboutRow } from "./ask-paylater"
import { waitForStatusSlot } from "../limits/status-interval"

function whyDetached(row: AttemptRecord): string {
  if (row.superseded_by) {
    return `it was paid on an earlier link or request of session ${row.session_id}, replaced by ${row.superseded_by}`
  }
  if (row.start_error) {
    return `PayLater's answer to the request was lost (${row.start_error}), so checkout never knew it was sent`
  }
  return `its payment session ${row.session_id} was deleted in Medusa (the cart changed, another method was chosen, or a payment was started again in another tab)${row.cart_id ? `; cart ${row.cart_id}` : ""}`
}

/**
 * An attempt no live session stands for: a deleted session's, a superseded one, a Request to Pay
 * whose answer was lost. PayLater is asked (a notification's `success` is confirmed, never taken
 * at its word); paid means paid without an order, listed once (dedupe per PayLater order) and
 * refunded or held per `paidWithoutOrder`.
 */
export async function settleDetachedAttempt(
  container: MedusaContainer,
  row: AttemptRecord,
  input: Pick<SettleInput, "signal" | "reported" | "throttle_seconds" | "wait_for_slot">
): Promise<Settlement> {
  let current = row
  let asked = false
  // The one asking rule (attempt-state.ts): open rows until PayLater itself ends them, ended ones
  // only on a verified `success`, which PayLater confirms.
  const wanted = askPayLaterNow(row, { signal: input.signal, reported: input.reported }, new Date())
  // A public screen polling a gone session asks PayLater at most once per interval, like a live one.
  const slot = wanted && input.throttle_seconds ? await detachedSlot(container, row, input) : { free: true, row }
  current = slot.row
  if (wanted && slot.free && askPayLaterNow(current, { signal: input.signal, reported: input.reported }, new Date())) {
    const answer = await askPayLaterAboutRow(container, current, input.signal)
    if (answer.kind !== "answered") {
      // Left open, asked again at its next-ask time.
      return { outcome: "detached", session: null, attempt: current, asked: answer.kind === "unanswered", changed: current.state !== row.state }
    }
    asked = true
    current = answer.row
  }
  current = await linkToCart(container, current)
  const changed = current.state !== row.state
  if (current.state === "paid") {
    await listPaidDetached(container, current, input.signal, changed)
  }
  return { outcome: "detached", session: null, attempt: current, asked, changed }
}

/**
 * The interval's slot to ask PayLater about a detached row. A shopper's return waits for it (up to one
 * interval), as a live session's does: the slot is often held by PayLater's own notification of the
 * same payment, arriving at the same moment, whose answer is then on the row (re-read while waiting),
 * so the shopper is sent to "paid, not placed" rather than "pending".
 */
async function detachedSlot(
  container: MedusaContainer,
  row: AttemptRecord,
  input: Pick<SettleInput, "throttle_seconds" | "wait_for_slot">
): Promise<{ free: boolean; row: AttemptRecord }> {
  const seconds = input.throttle_seconds!
  let current = row
  const free = await waitForStatusSlot({
    take: () => takeStatusSlot(container, row.paylater_order_id, seconds),
    seconds,
    wait: !!input.wait_for_slot,
    sleep,
    settled: async () => {
      current = (await ledgerModuleOf(container)?.findAttempt(row.paylater_order_id)) ?? current
      // PayLater's word arrived by the road holding the slot: nothing left to ask.
      return current.state !== row.state
    },
  })
  return { free, row: current }
}

/**
 * The cart of the attempt's collection, written on its row once known. Never the cart's order: only
 * the attempt whose money the order holds gets that (medusa-effects/order-owner.ts).
 */
async function linkToCart(container: MedusaContainer, row: AttemptRecord): Promise<AttemptRecord> {
  if (!row.payment_collection_id || row.cart_id) return row
  const owner = (await ownersOf(container, [row.payment_collection_id])).get(row.payment_collection_id)
  if (!owner?.cart_id) return row
  await ledgerModuleOf(container)!.linkAttempt(row.paylater_order_id, { cart_id: owner.cart_id })
  return { ...row, cart_id: owner.cart_id }
}

/** Lists a paid detached attempt (idempotent: the same PayLater order gives the same item). */
async function listPaidDetached(container: MedusaContainer, row: AttemptRecord, signal: string, news: boolean): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  if (await paymentOfAttempt(container, row)) {
    // Medusa recorded this attempt's payment, then deleted its session: its cart's completion failed.
    await flagPaidWithoutOrder(container, row.session_id, { signal })
    return
  }
  const registration = registrationOfAttempt(container, row)
  if (!registration.ok) warnUnroutedOnce(logger, row.paylater_order_id, registration.why)
  const flagged = await flagPaidAttempt(container, {
    paylater_order_id: row.paylater_order_id,
    session_id: row.session_id,
    provider_id: registration.ok ? registration.provider_id : row.provider_id ?? "pp_paylater_unknown",
    // No registration may refund it: listed for a person, never refunded automatically.
    unrouted: registration.ok ? null : registration.why,
    amount: storedAmountText(row),
    paid_at: new Date(row.paid_at ?? row.last_status_at ?? Date.now()),
    payment_collection_id: row.payment_collection_id,
    cart_id: row.cart_id,
    order_id: row.order_id,
    reason: whyDetached(row),
    detail: { signal, paylater_ref: row.paylater_ref, superseded_by: row.superseded_by, kind: row.kind },
  })
  if (news && flagged) {
    // Short forms in logs (the whole ids are keys; Settings → PayLater shows them to staff).
    const cart = row.cart_id ? `, cart ${logRef(row.cart_id)}` : ""
    const why = flagged.order_id
      ? `the shopper paid twice: order ${logRef(flagged.order_id)} holds another payment`
      : row.superseded_by ? "superseded attempt" : row.start_error ? "its create's answer was lost" : "its session was deleted"
    logger.error(
      `PayLater: ${logRef(row.paylater_order_id)} (PayLater ref ${row.paylater_ref ?? "?"}, ${flagged.amount ?? "?"} QAR${cart}) is paid without an order (${why}). ${PAID_WITHOUT_ORDER_NEXT_STEP}`
    )
  }
}

/**
 * Whose money a paid PayLater attempt is: the one decision every money action takes (listing on
 * Settings → PayLater, the automatic refund, the refund from the list, settlement, reconciliation,
 * the order card), from the attempt's ledger row and Medusa's records of its collection's order
 * read at the moment of acting. Pure: facts in, decision out (takes `now`).
 *
 * - `this_order`: the order holds this payment. Never listed, never refunded from the list or
 *   automatically. Once recorded on the row (`order_id` + `payment_id`) it is final. `medusa_holds`
 *   false: decided past the bound with no capture transaction on the order, i.e. Medusa's completion
 *   died part-way; whoever records the owner also finishes Medusa's records of it.
 * - `extra`: the collection's order is held by another payment (PayLater's or another method's):
 *   the shopper paid twice; the money goes back per `paidWithoutOrder`.
 * - `no_order`: the cart is not an order (yet): paid without an order.
 * - `cannot_tell`: the order exists and Medusa's completion is still writing which payment it holds.
 *   Only ever temporary: past `until` the decision falls to one of the others.
 * - `not_paid`: PayLater has not said paid: nobody's money.
 */
import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"

export type Owner =
  | { owner: "not_paid" }
  | { owner: "this_order"; order_id: string; payment_id: string; recorded: boolean; medusa_holds: boolean }
  | { owner: "extra"; order_id: string; held_by: "paylater" | "other_method" | "none_of_this_attempt" }
  | { owner: "no_order" }
  | { owner: "cannot_tell"; order_id: string; until: Date }

/** A Medusa payment on the attempt's collection, as the decision needs it. */
export interface CollectionPayment {
  id: string
  /** The session Medusa authorized it from (it outlives the session). */
  session_id: string | null
  /** A PayLater payment (either method, any registration). */
  paylater: boolean
  /**
   * The PayLater order (attempt) it was authorized for: the provider's authorization output, which
   * Medusa keeps as the payment's data (written by the provider from the ledger, never by the
   * storefront); refunds of the payment go to that PayLater order. Null when not a PayLater payment
   * or not named.
   */
  attempt: string | null
  canceled: boolean
  created_at: Date | string
  /** The order's transactions hold a capture of it: the order was placed with (or paid by) it. */
  held: boolean
  /**
   * On a collection the admin or the point of sale added to the order after its checkout, not the
   * attempt's own: it pays for the order only as far as its amount goes (see decideOwner).
   */
  added?: boolean
  /** What Medusa recorded it for (two-decimal text or a BigNumber's raw value). */
  amount?: BigNumberInput
}

/** Medusa's records of the attempt's collection, read at the moment of acting. */
export interface CollectionMoney {
  /**
   * The cart's order, or the point-of-sale order the collection belongs to; null when none. `total`:
   * what the order is owed now (after edits); null when not read.
   */
  order: { id: string; created_at: Date | string; total?: BigNumberInput | null } | null
  payments: CollectionPayment[]
}

export interface OwnedRow {
  paylater_order_id: string
  state: string
  session_id: string
  order_id: string | null
  payment_id: string | null
  /** A later attempt of the same session replaced this one. */
  superseded_by?: string | null
}

/**
 * Whether a Medusa payment naming `attempt` (its authorization's PayLater order; null when it names
 * none) is this row's money: the attempt it names, or, naming none, the session's current attempt.
 * The one rule for the owner decision, listing and linking (medusa-records/payment-attempt.ts).
 */
export function paymentIsForAttempt(attempt: string | null, row: { paylater_order_id: string; superseded_by?: string | null }): boolean {
  return attempt ? attempt === row.paylater_order_id : !row.superseded_by
}

/**
 * How long after an order is placed its completion may still be writing the transaction that says
 * which payment it holds. Completion writes it seconds after the order; past this, a missing
 * transaction means the process placing the order died in between, and the records that exist
 * decide (see decideOwner).
 */
export const OWNER_SETTLES_WITHIN_MS = 5 * 60_000

const ms = (at: Date | string) => new Date(at).getTime()

/**
 * The one owner decision. A recorded owner is final (sessions and carts may change after the order;
 * its money stays with it). Otherwise, with an order on the collection:
 * 1. the order's transactions hold this attempt's Medusa payment → this order;
 * 2. they hold another payment, or a live payment of another method is on the collection (other
 *    methods are not captured at completion, so no transaction names them) → extra; payments on
 *    collections added to the order later count here only when together they cover the order's
 *    total: staff who collect an order edit's difference while a crash left the checkout's payment
 *    unrecorded have not been paid the order twice, and the checkout's money stays its own;
 * 3. this attempt has no live Medusa payment on the collection (never authorized in Medusa, canceled
 *    once its money went back, or another attempt of the same session is the one its payment was
 *    authorized for) → extra: an order can only hold a payment Medusa recorded for it;
 * 4. only PayLater payments and no transaction yet → cannot tell until OWNER_SETTLES_WITHIN_MS after
 *    the order; then the order holds the first PayLater payment Medusa recorded (Medusa's completion
 *    takes the collection's authorized payment; a later one is a second payment), the rest are extra.
 *    The order's records of it are then unfinished (`medusa_holds: false`).
 */
export function decideOwner(row: OwnedRow | null | undefined, money: CollectionMoney | null, now: Date): Owner {
  if (!row || row.state !== "paid") return { owner: "not_paid" }
  if (row.order_id && row.payment_id) {
    return { owner: "this_order", order_id: row.order_id, payment_id: row.payment_id, recorded: true, medusa_holds: true }
  }
  const order = money?.order
  if (!order) return { owner: "no_order" }
  const live = paymentsThatPay(money.payments, order.total ?? null)
  // A Medusa payment is the money of the attempt it was authorized for. A session's attempt can
  // change after its payment was authorized (a create whose answer was lost is retried as "-2" while
  // the first, paid meanwhile, is being placed), so neither the session nor the row's link decides
  // against the payment's own attempt; a payment naming none falls to the session's current attempt.
  const authorizedFor = (p: CollectionPayment) => paymentIsForAttempt(p.attempt, row) && (!!p.attempt || p.session_id === row.session_id)
  const mine = live.find((p) => p.paylater && p.id === row.payment_id && authorizedFor(p)) ?? live.find((p) => p.paylater && authorizedFor(p))
  if (mine?.held) return { owner: "this_order", order_id: order.id, payment_id: mine.id, recorded: false, medusa_holds: true }
  const heldOther = live.find((p) => p.held)
  if (heldOther) return { owner: "extra", order_id: order.id, held_by: heldOther.paylater ? "paylater" : "other_method" }
  if (live.some((p) => !p.paylater)) return { owner: "extra", order_id: order.id, held_by: "other_method" }
  if (!mine) return { owner: "extra", order_id: order.id, held_by: "none_of_this_attempt" }
  const until = new Date(ms(order.created_at) + OWNER_SETTLES_WITHIN_MS)
  if (now.getTime() < until.getTime()) return { owner: "cannot_tell", order_id: order.id, until }
  const [first] = live.filter((p) => p.paylater).sort((a, b) => ms(a.created_at) - ms(b.created_at) || a.id.localeCompare(b.id))
  return first.id === mine.id
    ? { owner: "this_order", order_id: order.id, payment_id: mine.id, recorded: false, medusa_holds: false }
    : { owner: "extra", order_id: order.id, held_by: "paylater" }
}

/**
 * The collection's live payments, and those of collections added to the order later when together
 * they cover the order's total (the order paid again in full); otherwise they paid something else
 * (an order edit's difference) and say nothing about whose the attempt's money is. With the total
 * unknown they all count.
 */
function paymentsThatPay(payments: CollectionPayment[], orderTotal: BigNumberInput | null): CollectionPayment[] {
  const live = payments.filter((p) => !p.canceled)
  const added = live.filter((p) => p.added)
  if (!added.length || orderTotal === null) return live
  const addedTotal = added.reduce((sum, p) => MathBN.add(sum, p.amount ?? 0), MathBN.convert(0))
  return MathBN.gte(addedTotal, orderTotal) ? live : live.filter((p) => !p.added)
}

/** Money no order holds: listed on Settings → PayLater and refunded or held per `paidWithoutOrder`. */
export function heldByNoOrder(owner: Owner): boolean {
  return owner.owner === "extra" || owner.owner === "no_order"
}

/** One line for an operator (the list's summary, a closing note, a refusal). */
export function ownerSentence(owner: Owner): string {
  switch (owner.owner) {
    case "not_paid":
      return "PayLater has not confirmed this payment as paid."
    case "this_order":
      return `Order ${owner.order_id} holds this payment (Medusa payment ${owner.payment_id}).`
    case "extra":
      return owner.held_by === "other_method"
        ? `Order ${owner.order_id} was placed with another payment method, so this PayLater payment is an extra payment (the shopper paid twice).`
        : `Order ${owner.order_id} holds another payment, so this PayLater payment is an extra payment (the shopper paid twice).`
    case "no_order":
      return "No order was placed with this payment."
    case "cannot_tell":
      return `Order ${owner.order_id} was just placed and Medusa is still recording which payment it holds; asked again after ${owner.until.toISOString()}.`
  }
}

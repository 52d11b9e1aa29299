/**
 * What Medusa's records must say about one paid PayLater attempt, given whose money it is and
 * whether any of it went back to the shopper. Medusa keeps the same money in a second record
 * (its payment session, payment and order) and its own flows act on that record without asking
 * the plugin: the storefront's `POST /store/carts/:id/complete` takes any session in a processable
 * status. So every money decision is a plan over both records, and one executor
 * (src/money-plan/apply.ts) makes Medusa's side match it. Pure: facts in, plan out.
 */
import { ownerSentence, type Owner } from "./whose-money"

/** Medusa's session statuses its cart completion takes (validateCartPaymentsStep). */
export const PROCESSABLE_SESSION_STATUSES = ["pending", "requires_more", "authorized", "captured", "pending_authorization"]

/** The statuses of a session Medusa recorded a payment on. */
const RECORDED_SESSION_STATUSES = ["authorized", "captured"]

export interface MoneyFacts {
  owner: Owner
  /**
   * Some or all of the money went back, or may have (a refund sent or whose answer is unknown, a
   * refund recorded at PayLater, an item resolved as refunded): it can never be an order's.
   */
  given_back: boolean
  /** The Medusa session the attempt's money was recorded on, as Medusa holds it now; null when none. */
  medusa_session: { id: string; status: string } | null
  /**
   * The Medusa payment authorized for the attempt, as Medusa holds it now; null when none. A live,
   * uncaptured one is what staff could still capture on the order page.
   */
  medusa_payment: { id: string; canceled: boolean; captured: boolean } | null
  /** PayLater refunded all of it (the refund guard's accepted refunds cover the attempt's amount). */
  refunded_in_full: boolean
}

/**
 * What Settings → PayLater's list must say about this money: the ledger's side of the plan. Listing,
 * the list's re-decision, the automatic refund and the refund from the list all act on it.
 */
export type ListStep =
  /** PayLater has not said paid: nobody's money, nothing to list or refund. */
  | { step: "none"; note: string }
  /** An order holds it: off the list, never refunded from it (the order's refund is the order page's). */
  | { step: "close_held"; note: string }
  /** PayLater gave all of it back: off the list as refunded, nothing more to send. */
  | { step: "close_refunded"; note: string }
  /** An order is being placed now and may hold it: listed, nothing refunded until it can be told. */
  | { step: "wait"; note: string }
  /** Money no order holds, or extra beside the order's: listed, to go back (the merchant's option or a person). */
  | { step: "refundable" }

/**
 * Whether Medusa's own refund of the attempt's Medusa payment (the order page's Refund,
 * `POST /admin/payments/:id/refund`) may go ahead. Medusa's refund workflow books every refund on
 * the collection's order: a transaction of minus the amount and, while the order owes nothing back,
 * a credit line that lowers its total. That is right only for the order's own money; money extra to
 * the order would read as the order refunded (a 360 order would show as free), so it goes back from
 * Settings → PayLater, which refunds the payment without touching the order.
 */
export type MedusaRefundStep = { step: "allow" } | { step: "refuse"; why: string }

export interface MoneyPlan {
  /**
   * The Medusa session to make unusable (status `canceled`): money given back must leave nothing a
   * completion could take, and the cart free to pay again. Null when Medusa's record is already right.
   */
  retire_session: string | null
  /**
   * The Medusa payment to cancel: money given back must not stay an authorized payment that staff
   * could capture (Medusa would then count it as the order's). Null when there is none to cancel.
   */
  cancel_payment: string | null
  /** Whether this money may still become the cart's order (settlement completes only then). */
  may_become_order: boolean
  /** One line for logs and the person who looks. */
  why: string
  list: ListStep
  medusa_refund: MedusaRefundStep
}

/** The list's note when an order holds the money: written wherever that closes an item. */
export const heldNote = (owner: Extract<Owner, { owner: "this_order" }>) => `${ownerSentence(owner)} Nothing refunded.`

/** The list's note when PayLater gave all of it back (the item's amount when it names one). */
export const refundedInFullNote = (amount?: string | null) => (amount ? `Refunded ${amount} QAR in full at PayLater.` : "Refunded in full at PayLater.")

function listStepOf(owner: Owner, refundedInFull: boolean): ListStep {
  switch (owner.owner) {
    case "not_paid":
      return { step: "none", note: `${ownerSentence(owner)} Nothing refunded.` }
    case "this_order":
      // The order's money given back in full (the order page's refund): the item about it closes as
      // refunded, never with "Nothing refunded.".
      return refundedInFull ? { step: "close_refunded", note: refundedInFullNote() } : { step: "close_held", note: heldNote(owner) }
    case "cannot_tell":
      return { step: "wait", note: ownerSentence(owner) }
    case "extra":
    case "no_order":
      return refundedInFull ? { step: "close_refunded", note: refundedInFullNote() } : { step: "refundable" }
  }
}

const FROM_THE_LIST = "Nothing was refunded: refund it from Settings → PayLater, which gives it back without changing the order."

/** The plan's Medusa-refund side alone: it depends on the owner only, so a caller that needs no other side decides it from whoseMoney. */
export function medusaRefundOf(owner: Owner): MedusaRefundStep {
  switch (owner.owner) {
    case "this_order":
      // Held by no capture on the order yet (a completion died part-way): Medusa's refund would book
      // minus the amount against an order that never booked it; the recovery finishes the order first.
      return owner.medusa_holds
        ? { step: "allow" }
        : { step: "refuse", why: `${ownerSentence(owner)} Medusa's records of the order are being finished; nothing was refunded, try again in a few minutes.` }
    case "not_paid":
      return { step: "refuse", why: `${ownerSentence(owner)} There is nothing to refund.` }
    case "cannot_tell":
      return { step: "refuse", why: `${ownerSentence(owner)} Nothing was refunded; try again in a few minutes.` }
    case "extra":
      return { step: "refuse", why: `${ownerSentence(owner)} A refund here would be booked against the order's own money. ${FROM_THE_LIST}` }
    case "no_order":
      return { step: "refuse", why: `${ownerSentence(owner)} ${FROM_THE_LIST}` }
  }
}

export function planMoney(facts: MoneyFacts): MoneyPlan {
  return { ...medusaSideOf(facts), list: listStepOf(facts.owner, facts.refunded_in_full), medusa_refund: medusaRefundOf(facts.owner) }
}

const nothingToChange = { retire_session: null, cancel_payment: null }

function medusaSideOf(facts: MoneyFacts): Omit<MoneyPlan, "list" | "medusa_refund"> {
  const { owner, given_back: givenBack, medusa_session: session, medusa_payment: payment } = facts
  switch (owner.owner) {
    case "not_paid":
      return { ...nothingToChange, may_become_order: false, why: "PayLater has not said paid." }
    case "this_order":
      // The order's money: a refund of it is the order's business (Medusa's order refund), never a reason to unpick the order.
      return { ...nothingToChange, may_become_order: true, why: `Order ${owner.order_id} holds this payment.` }
    case "cannot_tell":
      return { ...nothingToChange, may_become_order: false, why: `Order ${owner.order_id} is being placed; decided again after ${owner.until.toISOString()}.` }
    case "extra":
    case "no_order": {
      if (!givenBack) {
        return {
          ...nothingToChange,
          may_become_order: owner.owner === "no_order",
          why: owner.owner === "no_order" ? "Paid, no order yet." : `Order ${owner.order_id} holds another payment: this one is extra.`,
        }
      }
      // A session Medusa recorded a payment on, none of it this attempt's, carries another attempt's
      // money (a retried link's, the order's): this attempt never reaches a completion through it.
      const othersMoney = !payment && !!session && RECORDED_SESSION_STATUSES.includes(session.status)
      const usable = !!session && PROCESSABLE_SESSION_STATUSES.includes(session.status) && !othersMoney
      return {
        retire_session: usable ? session!.id : null,
        // A captured payment is an order's record of money received: its refund is recorded there, not undone.
        cancel_payment: payment && !payment.canceled && !payment.captured ? payment.id : null,
        may_become_order: false,
        why: "Its money went back to the shopper (in full or in part): no order may take it, and the cart may be paid again.",
      }
    }
  }
}

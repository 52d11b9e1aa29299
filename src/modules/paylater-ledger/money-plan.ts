/**
 * What Medusa's records must say about one paid PayLater attempt, given whose money it is and
 * whether any of it went back to the shopper. Medusa keeps the same money in a second record
 * (its payment session, payment and order) and its own flows act on that record without asking
 * the plugin: the storefront's `POST /store/carts/:id/complete` takes any session in a processable
 * status. So every money decision is a plan over both records, and one executor
 * (src/money-plan/apply.ts) makes Medusa's side match it. Pure: facts in, plan out.
 */
import type { Owner } from "./whose-money"

/** Medusa's session statuses its cart completion takes (validateCartPaymentsStep). */
export const PROCESSABLE_SESSION_STATUSES = ["pending", "requires_more", "authorized", "captured", "pending_authorization"]

export interface MoneyFacts {
  owner: Owner
  /**
   * Some or all of the money went back, or may have (a refund sent or whose answer is unknown, a
   * refund recorded at PayLater, an item resolved as refunded): it can never be an order's.
   */
  given_back: boolean
  /** The Medusa session the attempt's money was recorded on, as Medusa holds it now; null when none. */
  medusa_session: { id: string; status: string } | null
}

export interface MoneyPlan {
  /**
   * The Medusa session to make unusable (status `canceled`): money given back must leave nothing a
   * completion could take, and the cart free to pay again. Null when Medusa's record is already right.
   */
  retire_session: string | null
  /** Whether this money may still become the cart's order (settlement completes only then). */
  may_become_order: boolean
  /** One line for logs and the person who looks. */
  why: string
}

export function planMoney(facts: MoneyFacts): MoneyPlan {
  const { owner, given_back: givenBack, medusa_session: session } = facts
  switch (owner.owner) {
    case "not_paid":
      return { retire_session: null, may_become_order: false, why: "PayLater has not said paid." }
    case "this_order":
      // The order's money: a refund of it is the order's business (Medusa's order refund), never a reason to unpick the order.
      return { retire_session: null, may_become_order: true, why: `Order ${owner.order_id} holds this payment.` }
    case "cannot_tell":
      return { retire_session: null, may_become_order: false, why: `Order ${owner.order_id} is being placed; decided again after ${owner.until.toISOString()}.` }
    case "extra":
    case "no_order": {
      if (!givenBack) {
        return {
          retire_session: null,
          may_become_order: owner.owner === "no_order",
          why: owner.owner === "no_order" ? "Paid, no order yet." : `Order ${owner.order_id} holds another payment: this one is extra.`,
        }
      }
      const usable = !!session && PROCESSABLE_SESSION_STATUSES.includes(session.status)
      return {
        retire_session: usable ? session!.id : null,
        may_become_order: false,
        why: "Its money went back to the shopper (in full or in part): no order may take it, and the cart may be paid again.",
      }
    }
  }
}

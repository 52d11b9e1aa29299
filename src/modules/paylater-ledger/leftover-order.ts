/**
 * Whether a cart's order is what a dead cart completion left behind with no money anywhere: the
 * rollback Medusa's completion would have run, still to be finished. Pure: facts in, decision out
 * (takes `now`).
 *
 * Medusa's completeCartWorkflow (2.21.2) creates the order, links it to the cart and its payment
 * collection, marks the cart completed and reserves the stock, and only then authorizes the payment;
 * when that fails (PayLater never said paid) its rollback deletes the order and opens the cart again.
 * A process killed in between (fault campaign, CI smoke seed 198548656: a storefront's
 * `POST /store/carts/:id/complete` on a Request to Pay the shopper declined, the server killed by
 * another request's crash point) leaves the order, its cart completed, no payment at all, and no
 * money at PayLater: the checker's `order_is_paid` violation, an order a shopper never paid, shown as
 * placed to whoever completes the cart again. Medusa never resumes the run.
 *
 * `undo` only when every one of these holds; any other order is left alone:
 * - a cart's order as its completion made it and nobody touched since: pending, not a draft order's,
 *   version 1, no order change (edit, return, claim, exchange), nothing fulfilled, no transaction;
 * - no live payment on any collection of the order or its cart, and every payment session there is
 *   PayLater's and not authorized: a completion with a method that authorizes later (a bank
 *   transfer's `pending_authorization`) places a real order with no payment yet, and a completion
 *   that succeeded with PayLater recorded one; an order of a free cart records none, hence a total
 *   above 0;
 * - every PayLater attempt of the cart has ended without money (declined, expired, never started):
 *   one paid is the settlement's to place on this order (half-made orders, finish-order.ts), and one
 *   still starting or open could still be paid;
 * - past OWNER_SETTLES_WITHIN_MS after the order's creation: no completion of the cart can still be
 *   on its way to the authorization (Medusa's lock on the cart lives 2 minutes).
 */
import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { FINAL_UNPAID, type AttemptState } from "./attempt-state"
import { OWNER_SETTLES_WITHIN_MS } from "./whose-money"

export interface LeftoverOrderFacts {
  order: {
    id: string
    created_at: string | Date
    status: string
    is_draft_order: boolean
    version: number
    total: BigNumberInput
    fulfillments: number
    transactions: number
    changes: number
  }
  /** Payments not canceled on the order's collections and the cart's, any provider. */
  live_payments: number
  /** The payment sessions of those collections, any provider, deleted ones too. */
  sessions: Array<{ paylater: boolean; status: string }>
  /** The states of every PayLater attempt of the cart (by cart or by its payment collection). */
  attempt_states: AttemptState[]
}

export type LeftoverOrderStep =
  | { step: "undo" }
  | { step: "wait"; until: Date }
  | { step: "leave"; why: "acted_on" | "paid" | "other_method" | "free" | "money_possible" | "no_attempt" }

/** Session statuses of money Medusa holds, or was told it will get (a method that authorizes later). */
const AUTHORIZED: ReadonlySet<string> = new Set(["authorized", "captured", "pending_authorization"])

export function decideLeftoverOrder(facts: LeftoverOrderFacts, now: Date): LeftoverOrderStep {
  const { order } = facts
  const untouched = order.status === "pending" && !order.is_draft_order && order.version === 1 && !order.changes && !order.fulfillments && !order.transactions
  if (!untouched) return { step: "leave", why: "acted_on" }
  if (facts.live_payments > 0 || facts.sessions.some((s) => AUTHORIZED.has(s.status))) return { step: "leave", why: "paid" }
  if (facts.sessions.some((s) => !s.paylater)) return { step: "leave", why: "other_method" }
  if (!MathBN.gt(order.total, 0)) return { step: "leave", why: "free" }
  // Not a PayLater checkout, or one whose row is gone: not this plugin's to finish.
  if (!facts.attempt_states.length) return { step: "leave", why: "no_attempt" }
  if (facts.attempt_states.some((state) => !FINAL_UNPAID.has(state))) return { step: "leave", why: "money_possible" }
  const until = new Date(new Date(order.created_at).getTime() + OWNER_SETTLES_WITHIN_MS)
  return now.getTime() < until.getTime() ? { step: "wait", until } : { step: "undo" }
}

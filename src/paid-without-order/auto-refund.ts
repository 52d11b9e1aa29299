import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, sentOnceStaleAfterMs } from "../lib/paylater"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { sendGuardedRefund } from "../providers/paylater/refund-guard"
import { CartBusyError, underCartMoneyLocks } from "../money-plan/cart-locks"
import { planMoney } from "../modules/paylater-ledger/money-plan"
import { moneyFactsOf } from "../money-plan/facts"
import { ownerSentence } from "../modules/paylater-ledger/whose-money"
import { notRefundableMessage, registrationOfItem, whyNotRefundable } from "./item-registration"
import { planSentence } from "./listing"
import { afterFailure, isAbandoned, isDue, planColumns, readPlan, startRefund, type AutoRefund } from "../money-plan/refund-plan"
import { crashPoint } from "../faults/crash-point"
import { applyMoneyPlanAfterRefund } from "../money-plan/apply"
import { applyListStep } from "../modules/paylater-ledger/list-step"

/**
 * The automatic full refund of payments PayLater took without an order (paid-without-order.ts),
 * run by the paylater-recover-payments job. Exactly once: each item is refunded under its own lock
 * and its cart's lock, its plan says "refunding" before anything is sent (settlement then never
 * completes the cart), and the refund goes through the refund guard, which records it before the
 * call and refuses a second one while the first is unanswered or once the payment is refunded.
 */

export type AutoRefundOutcome = "refunded" | "retry_later" | "outcome_unknown" | "stopped" | "order_placed" | "skipped"

// A refund call takes at most a few timeouts; the item's lock outlives it.
const ITEM_LOCK_SECONDS = 300
/** A run's share of the due items; the rest are the next run's, still due first. */
const DUE_ITEMS_PER_RUN = 200

async function savePlan(ledger: PayLaterLedgerModuleService, item: AttentionRecord, plan: AutoRefund): Promise<void> {
  await ledger.updatePayLaterAttentions({
    id: item.id,
    ...planColumns(plan),
    summary: summaryFor(item.summary, plan),
  })
}

/** The operator's sentence once the automatic refund gave up: the item says so, not "will be refunded". */
function summaryFor(summary: string, plan: AutoRefund): string {
  const facts = summary.replace(/ It will be refunded in full automatically.*$/s, "")
  if (plan.state === "outcome_unknown") {
    return `${facts} The automatic refund got no answer from PayLater and may have been paid out: check the PayLater merchant portal and record it on the "Refund outcome unknown" row; nothing is sent again automatically.`
  }
  if (plan.state === "held" && plan.last_error) {
    return `${facts} ${planSentence(plan)}`
  }
  if (plan.state === "stopped" && plan.last_error) {
    return `${facts} The automatic refund was refused ${plan.tries} times (last: ${plan.last_error}); refund it yourself or mark it resolved.`
  }
  return summary
}

async function reread(ledger: PayLaterLedgerModuleService, id: string): Promise<AttentionRecord | undefined> {
  const [item] = (await ledger.listPayLaterAttentions({ id }, { take: 1 })) as unknown as AttentionRecord[]
  return item
}

/**
 * The refund itself: through the Medusa payment when there is one, else straight through the
 * guard (a superseded attempt, a deleted session's, a Request to Pay whose answer was lost: nothing
 * in Medusa holds that money). `amount` defaults to the whole payment. Only ever at the PayLater
 * account of the registration that started the attempt; refused (typed) when none is configured.
 */
export async function sendRefund(
  container: MedusaContainer,
  ledger: PayLaterLedgerModuleService,
  item: AttentionRecord,
  amount?: string
): Promise<void> {
  const refundAmount = amount ?? item.amount
  const row = item.paylater_order_id ? await ledger.findAttempt(item.paylater_order_id) : null
  const registration = registrationOfItem(container, item, row)
  if (!registration.ok) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, notRefundableMessage(registration.why))
  }
  if (item.payment_id) {
    await container.resolve(Modules.PAYMENT).refundPayment({
      payment_id: item.payment_id,
      // Always the ledger's two-decimal amount: Medusa's default (the payment's raw amount) may carry
      // more decimals than PayLater takes, and would be refused on every try.
      ...(refundAmount ? { amount: refundAmount } : {}),
      note: "PayLater: paid without an order, refunded automatically",
    })
    return
  }
  // A superseded attempt has no Medusa payment: nothing in Medusa can record this refund.
  if (!item.paylater_order_id || !item.amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This item names no PayLater order and amount to refund.")
  }
  await sendGuardedRefund({
    api: registration.api,
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
    ledger,
    data: { amount: item.amount },
    orderId: item.paylater_order_id,
    sessionId: item.session_id,
    amount: amount ?? item.amount,
    capturedAmount: item.amount,
    staleAfterMs: sentOnceStaleAfterMs(registration.options.config),
  })
}

/** Whether the guard holds a refund of this PayLater order whose outcome nobody knows. */
async function outcomeUnknown(ledger: PayLaterLedgerModuleService, paylaterOrderId: string | null): Promise<boolean> {
  if (!paylaterOrderId) return true
  const open = await ledger.listPayLaterRefundAttempts({ paylater_order_id: paylaterOrderId, status: ["pending", "unknown"] }, { take: 1 })
  return open.length > 0
}

async function refundOne(container: MedusaContainer, ledger: PayLaterLedgerModuleService, id: string, now: Date): Promise<AutoRefundOutcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const item = await reread(ledger, id)
  const plan = readPlan(item)
  if (item?.status === "open" && plan && isAbandoned(plan, now)) {
    if (item.paylater_order_id && item.amount && MathBN.gte(await ledger.refundedAmount(item.paylater_order_id), item.amount)) {
      // The process died after PayLater accepted the refund and the guard recorded it (fault campaign,
      // crash point auto-refund:after-sent): refunded, nothing for a person to chase.
      return finish(ledger, item, { ...plan, state: "refunded", next_attempt_at: null }, "Refunded in full automatically (paid without an order).")
    }
    await savePlan(ledger, item, afterFailure(plan, now, "the process sending the refund stopped before PayLater answered", true))
    return "outcome_unknown"
  }
  if (!item || item.status !== "open" || !plan || !isDue(plan, now)) {
    return "skipped"
  }
  // The money plan's list step, decided now under the cart's locks: no completion can change it meanwhile.
  const row = item.paylater_order_id ? await ledger.findAttempt(item.paylater_order_id) : null
  const facts = row ? await moneyFactsOf(container, ledger, row, now) : null
  const step = facts ? planMoney(facts).list : null
  switch (step?.step) {
    case "close_held":
      // An order holds this very payment (a retried completion placed it): it is the order's, never refunded.
      await applyListStep(ledger, { ...item, paylater_order_id: row!.paylater_order_id }, step)
      return "order_placed"
    case "wait":
      // An order was placed this minute: the next run decides (the plan stays due).
      return "retry_later"
    case "none":
      // The ledger does not hold it as paid: nothing is sent back on the list's word alone; a person looks.
      await savePlan(ledger, item, { ...plan, state: "held", next_attempt_at: null, last_error: step.note })
      logger.warn(`PayLater: ${logRef(item.paylater_order_id)} is listed but its ledger row is not paid; not refunded automatically, held for a person`)
      return "stopped"
    case "close_refunded":
      // Refunded already (Medusa's own completion refunds when it fails late enough, or an operator did).
      await applyMoneyPlanAfterRefund(container, item.paylater_order_id!, now)
      await savePlan(ledger, item, { ...plan, state: "refunded", next_attempt_at: null })
      await applyListStep(ledger, { ...item, paylater_order_id: row!.paylater_order_id }, step)
      return "refunded"
  }
  if (!row && item.paylater_order_id && item.amount && MathBN.gte(await ledger.refundedAmount(item.paylater_order_id), item.amount)) {
    // No ledger row (an item that is its own record): the refund guard's sum alone says it went back.
    return finish(ledger, item, { ...plan, state: "refunded", next_attempt_at: null }, "Refunded in full already; nothing more sent to PayLater.")
  }
  const unrouted = await whyNotRefundable(container, ledger, item)
  if (unrouted) {
    // Its registration is gone: sent to no other account, held for a person (said once: no longer due).
    await savePlan(ledger, item, { ...plan, state: "held", next_attempt_at: null, last_error: unrouted })
    logger.warn(`PayLater: ${logRef(item.paylater_order_id)} (${item.amount} QAR) is not refunded automatically: ${unrouted}; held for a person`)
    return "stopped"
  }
  await savePlan(ledger, item, startRefund(plan, now))
  try {
    await sendRefund(container, ledger, item)
    crashPoint("auto-refund:after-sent")
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const unknown = await outcomeUnknown(ledger, item.paylater_order_id)
    const next = afterFailure(plan, now, message.slice(0, 500), unknown)
    await savePlan(ledger, item, next)
    logger.warn(`PayLater: automatic refund of ${logRef(item.paylater_order_id)} (${item.amount} QAR) ${unknown ? "has an unknown outcome; left for a person" : `refused (${message}); ${next.state === "scheduled" ? `retried from ${next.next_attempt_at}` : "left for a person"}`}`)
    return unknown ? "outcome_unknown" : next.state === "scheduled" ? "retry_later" : "stopped"
  }
  logger.info(`PayLater: ${logRef(item.paylater_order_id)} was paid without an order; refunded ${item.amount} QAR in full automatically`)
  // Medusa's records follow: the session of money that went back is no completion's any more.
  if (item.paylater_order_id) await applyMoneyPlanAfterRefund(container, item.paylater_order_id, now)
  return finish(
    ledger,
    item,
    { ...plan, state: "refunded", tries: plan.tries + 1, next_attempt_at: null },
    `Refunded ${item.amount} QAR in full automatically. ${facts ? ownerSentence(facts.owner) : "No order holds this payment."}`
  )
}

async function finish(ledger: PayLaterLedgerModuleService, item: AttentionRecord, plan: AutoRefund, note: string): Promise<"refunded"> {
  await savePlan(ledger, item, plan)
  await ledger.resolveAttention(item.id, { resolution: "refunded", note })
  return "refunded"
}

/**
 * Refunds every listed payment whose plan is due at `now`. Safe to run twice at once: an item whose
 * lock is taken is left to the run holding it.
 */
export async function runPaidWithoutOrderRefunds(
  container: MedusaContainer,
  opts: { now?: Date } = {}
): Promise<Array<{ id: string; outcome: AutoRefundOutcome }>> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return []
  const now = opts.now ?? new Date()
  // Only what is due, longest due first (IDX_paylater_attention_refund_due_at): items held, stopped or
  // waiting later never take a due one's place, however many and however old.
  const due = (await ledger.listPayLaterAttentions(
    { kind: "paid_without_order", status: "open", refund_due_at: { $lte: now } } as never,
    { order: { refund_due_at: "ASC" }, take: DUE_ITEMS_PER_RUN }
  )) as unknown as AttentionRecord[]
  const locking = container.resolve(Modules.LOCKING)
  const results: Array<{ id: string; outcome: AutoRefundOutcome }> = []
  // The plan stays the rule (refundOne reads it again under the locks); the column only selects.
  for (const item of due.filter((i) => isDue(readPlan(i), now) || isAbandoned(readPlan(i), now))) {
    const key = `paylater:auto-refund:${item.id}`
    const ownerId = `paylater-auto-refund:${randomUUID()}`
    try {
      await locking.acquire(key, { ownerId, expire: ITEM_LOCK_SECONDS })
    } catch {
      results.push({ id: item.id, outcome: "skipped" })
      continue
    }
    try {
      // Under the money's locks too: no settlement of its session and no completion of its cart can
      // start while it goes back.
      const outcome = await underCartMoneyLocks(container, item, () => refundOne(container, ledger, item.id, now)).catch(
        (error: unknown) => {
          // The cart is being completed right now: the next run looks again.
          if (error instanceof CartBusyError) return "skipped" as const
          throw error
        }
      )
      results.push({ id: item.id, outcome })
    } finally {
      await locking.release(key, { ownerId }).catch(() => undefined)
    }
  }
  return results
}

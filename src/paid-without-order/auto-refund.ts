import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, refundStaleAfterMs } from "../lib/paylater"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { sendGuardedRefund } from "../providers/paylater/refund-guard"
import { clientForRegistration, configuredRegistrations, registrationIdOf } from "../medusa-records/registrations"
import { completionLockKey } from "./refund-plan"
import { heldByAnOrder } from "../medusa-records/order-owner"
import { afterFailure, isAbandoned, isDue, readPlan, startRefund, type AutoRefund } from "./refund-plan"
import { crashPoint } from "../faults/crash-point"

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
const CART_LOCK_WAIT_SECONDS = 5

async function savePlan(ledger: PayLaterLedgerModuleService, item: AttentionRecord, plan: AutoRefund): Promise<void> {
  await ledger.updatePayLaterAttentions({ id: item.id, detail: { ...item.detail, auto_refund: plan }, summary: summaryFor(item.summary, plan) })
}

/** The operator's sentence once the automatic refund gave up: the item says so, not "will be refunded". */
function summaryFor(summary: string, plan: AutoRefund): string {
  const facts = summary.replace(/ It will be refunded in full automatically.*$/s, "")
  if (plan.state === "outcome_unknown") {
    return `${facts} The automatic refund got no answer from PayLater and may have been paid out: check the PayLater merchant portal and record it on the "Refund outcome unknown" row; nothing is sent again automatically.`
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
 * in Medusa holds that money). `amount` defaults to the whole payment.
 */
export async function sendRefund(
  container: MedusaContainer,
  ledger: PayLaterLedgerModuleService,
  item: AttentionRecord,
  amount?: string
): Promise<void> {
  const refundAmount = amount ?? item.amount
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
  const providerId = String(item.detail?.provider_id ?? "")
  const registration = configuredRegistrations(container).find((r) => r.id === registrationIdOf(providerId))
  const api = clientForRegistration(container, registrationIdOf(providerId))
  if (!api || !registration?.options || !item.paylater_order_id || !item.amount) {
    throw new Error(`no PayLater registration for provider "${providerId}"`)
  }
  await sendGuardedRefund({
    api,
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
    ledger,
    data: { amount: item.amount },
    orderId: item.paylater_order_id,
    sessionId: item.session_id,
    amount: amount ?? item.amount,
    capturedAmount: item.amount,
    staleAfterMs: refundStaleAfterMs(registration.options.config),
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
  const plan = readPlan(item?.detail)
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
  if (item.paylater_order_id && (await heldByAnOrder(container, item.paylater_order_id, item.payment_collection_id ?? null))) {
    // An order holds this very payment (a retried completion placed it): it is the order's, never refunded.
    await savePlan(ledger, item, { ...plan, state: "stopped", next_attempt_at: null, last_error: null })
    await ledger.resolveAttention(item.id, { resolution: "resolved", note: "The order was placed with this payment after all; nothing refunded." })
    return "order_placed"
  }
  if (item.paylater_order_id && item.amount && MathBN.gte(await ledger.refundedAmount(item.paylater_order_id), item.amount)) {
    // Refunded already (Medusa's own completion refunds when it fails late enough, or an operator did).
    return finish(ledger, item, { ...plan, state: "refunded", next_attempt_at: null }, "Refunded in full already; nothing more sent to PayLater.")
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
  return finish(
    ledger,
    item,
    { ...plan, state: "refunded", tries: plan.tries + 1, next_attempt_at: null },
    `Refunded ${item.amount} QAR in full automatically (paid without an order).`
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
  const open = (await ledger.listPayLaterAttentions(
    { kind: "paid_without_order", status: "open" },
    { order: { created_at: "ASC" }, take: 200 }
  )) as unknown as AttentionRecord[]
  const locking = container.resolve(Modules.LOCKING)
  const results: Array<{ id: string; outcome: AutoRefundOutcome }> = []
  for (const item of open.filter((i) => isDue(readPlan(i.detail), now) || isAbandoned(readPlan(i.detail), now))) {
    const key = `paylater:auto-refund:${item.id}`
    const ownerId = `paylater-auto-refund:${randomUUID()}`
    try {
      await locking.acquire(key, { ownerId, expire: ITEM_LOCK_SECONDS })
    } catch {
      results.push({ id: item.id, outcome: "skipped" })
      continue
    }
    try {
      // Under the cart's lock too: no completion of the cart can start while its money goes back.
      let started = false
      const work = () => {
        started = true
        return refundOne(container, ledger, item.id, now)
      }
      // The completion lock first, as settlement takes it (settlement/completion.ts): the refund and the
      // completion of the same cart never overlap, and never wait on each other crosswise.
      const cartId = item.cart_id
      const outcome = cartId
        ? await locking
            .execute(completionLockKey(cartId), () => locking.execute(cartId, work, { timeout: CART_LOCK_WAIT_SECONDS }), {
              timeout: CART_LOCK_WAIT_SECONDS,
            })
            .catch((error: unknown) => {
            // The cart is being completed right now: the next run looks again.
            if (!started) return "skipped" as const
            throw error
          })
        : await work()
      results.push({ id: item.id, outcome })
    } finally {
      await locking.release(key, { ownerId }).catch(() => undefined)
    }
  }
  return results
}

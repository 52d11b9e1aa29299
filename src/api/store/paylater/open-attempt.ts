import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { logRef } from "../../../lib/paylater"
import { registeredProviderOptions } from "../../../medusa-records/registrations"
import { ledgerModuleOf } from "../../../modules/paylater-ledger/resolve"
import { settlePayLaterSession, type SettlementResult } from "../../../settlement/settle"
import { STATUS_CALL_INTERVAL_SECONDS } from "../../../limits/status-interval"

/** What the start learned about the collection's open attempts. */
export type OpenAttemptVerdict =
  /** Nothing open was found paid (or PayLater did not answer in time): the start goes on. */
  | { kind: "none" }
  /** An open attempt was paid and its cart is an order now: no new payment. */
  | { kind: "placed"; order_id: string }
  /** An open attempt was paid but its cart could not become an order: no new payment either. */
  | { kind: "paid_not_placed" }

type Row = Record<string, any>

/**
 * Before a new PayLater start replaces the collection's sessions (Medusa deletes them when it creates
 * the new one), each session whose attempt PayLater still has open is asked about once, through the
 * one settlement path: a shopper who paid link 1 in another tab a moment ago is led to the order
 * instead of being sent to pay again (and refunded 10+ minutes later). Called after the start's
 * budgets are spent, so a stranger cannot buy status calls with refused starts; one start per
 * collection runs at a time (one-start-at-a-time.ts), so this asks about each attempt at most once
 * per start. Signal `poll`: the shopper's own screen asking, with the same bound after expiry.
 */
export async function settleOpenAttempts(
  container: MedusaContainer,
  collectionId: string,
  /**
   * How long the start waits for PayLater's word (the look-up's `eligibilityTimeoutMs`, 3 s by
   * default): the shopper is waiting for a payment page, and without an answer the start goes on as
   * it always did (a payment found later is listed and refunded by the usual rules).
   */
  timeoutMs: number
): Promise<OpenAttemptVerdict> {
  const open = await openAttemptsOf(container, collectionId)
  for (const attempt of open) {
    const result = await withinTime(
      container,
      // Within the session's status-call slot: waiting (bounded by timeoutMs) for the next one when a
      // poll has this interval's, since a payment made seconds ago is what this check is for.
      settlePayLaterSession(container, {
        session_id: attempt.session_id,
        paylater_order_id: attempt.paylater_order_id,
        signal: "poll",
        throttle_seconds: STATUS_CALL_INTERVAL_SECONDS,
        wait_for_slot: true,
      }),
      timeoutMs,
      attempt.session_id
    )
    if (!result) continue
    if ((result.outcome === "paid" || result.outcome === "already_placed") && result.order_id) {
      return { kind: "placed", order_id: result.order_id }
    }
    if (result.outcome === "paid" || result.outcome === "paid_without_order") {
      return { kind: "paid_not_placed" }
    }
  }
  return { kind: "none" }
}

/** The collection's PayLater sessions whose current attempt PayLater has and has not ended. */
async function openAttemptsOf(container: MedusaContainer, collectionId: string): Promise<Array<{ session_id: string; paylater_order_id: string }>> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return []
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "payment_collection",
    fields: ["id", "payment_sessions.id", "payment_sessions.provider_id", "payment_sessions.status"],
    filters: { id: collectionId },
  })
  const sessions = (((data as Row[])[0]?.payment_sessions ?? []) as Row[]).filter(
    // A canceled session is no payment of this cart's any more (the money plan retired it).
    (s) => typeof s?.id === "string" && s.status !== "canceled" && registeredProviderOptions(container, String(s.provider_id ?? ""))
  )
  const open: Array<{ session_id: string; paylater_order_id: string }> = []
  for (const session of sessions) {
    const attempt = await ledger.currentAttemptOf(session.id)
    // Money that went back (in full or in part) is not the cart's: the shopper may pay again.
    if (attempt?.state === "paid" && (await ledger.moneyGivenBack(attempt.paylater_order_id))) continue
    if (attempt && (attempt.state === "open" || attempt.state === "paid")) {
      open.push({ session_id: session.id, paylater_order_id: attempt.paylater_order_id })
    }
  }
  return open
}

/**
 * The settlement's result, or null when it did not finish in time (or failed): the start goes on.
 * A settlement still running keeps going on its own and ends as any other signal's would.
 */
async function withinTime(
  container: MedusaContainer,
  settlement: Promise<SettlementResult>,
  timeoutMs: number,
  sessionId: string
): Promise<SettlementResult | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const settled = settlement.catch((error: unknown) => {
    logger.warn(`PayLater: the open attempt of ${logRef(sessionId)} could not be checked before a new start: ${(error as Error)?.message}`)
    return null
  })
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs)
  })
  try {
    const result = await Promise.race([settled, late])
    if (result === "late") {
      logger.info(`PayLater: no answer about the open attempt of ${logRef(sessionId)} within ${timeoutMs} ms; the new start goes on`)
      return null
    }
    return result
  } finally {
    clearTimeout(timer)
  }
}

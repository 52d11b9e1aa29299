import { setTimeout as sleep } from "node:timers/promises"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttemptLinkFields, AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { Owner } from "../modules/paylater-ledger/whose-money"
import type { AttemptSignal } from "../modules/paylater-ledger/attempt-state"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderOwner, whoseMoney } from "../medusa-records/order-owner"
import { collectionHoldsNoPayment } from "../medusa-records/owners"
import { currentAttemptOf, readPayLaterSession, type PayLaterSessionContext } from "../medusa-records/session"
import { attemptOfPayment, paymentOfAttempt } from "../medusa-records/payment-attempt"
import { completeUnlessRefunded, type CompletionOutcome } from "./completion"
import { settleDetachedAttempt } from "./detached-attempt"
import { authorizeUnderLock, rereadSessionRow, takeStatusSlot } from "./medusa-effects"
import { askPayLaterAboutRow, type RowAnswer } from "./ask-paylater"
import { recordOrderCaptures } from "../medusa-records/order-captures"
import { finishPlacedOrder, type PlacedOrder } from "../medusa-records/finish-order"
import type { PayLaterPaymentSettledData, Settlement, SettleInput } from "./settle"

export type AttemptLinks = AttemptLinkFields

/**
 * Everything settlement reads and does outside its own rules: the ledger, Medusa's records and
 * effects (each under Medusa's own lock), the owner decision, the locking module, the clock. The
 * rules (settle.ts) run against this, so they are unit-tested with fakes in milliseconds; the
 * integration tier proves the real ports end to end.
 */
export interface SettlementPorts {
  now(): Date
  findAttempt(paylaterOrderId: string): Promise<AttemptRecord | null>
  currentAttemptOf(sessionId: string): Promise<AttemptRecord | null>
  linkAttempt(paylaterOrderId: string, links: AttemptLinks): Promise<void>
  /** The session with its cart, order and current row (medusa-records/session.ts); null when Medusa has none. */
  readSession(sessionId: string): Promise<PayLaterSessionContext | null>
  /** Medusa's session status and the current row again, after a refused authorization. */
  rereadSession(context: PayLaterSessionContext): Promise<PayLaterSessionContext>
  /** The Medusa payment authorized for this very attempt (medusa-records/payment-attempt.ts), if any. */
  paymentIdOfAttempt(row: AttemptRecord): Promise<string | null>
  collectionHoldsNoPayment(collectionId: string): Promise<boolean>
  /**
   * PayLater's status for the row, asked at the registration that started it and recorded on the
   * row with `links` (ask-paylater.ts): the one road to PayLater's status.
   */
  askPayLater(row: AttemptRecord, signal: Exclude<AttemptSignal, "checkout">, links?: AttemptLinks): Promise<RowAnswer>
  /**
   * Medusa's authorization of the session under the cart lock, answered by the provider from the
   * row settlement just recorded (it asks PayLater nothing), the cart's other unpaid sessions then
   * dropped under the same lock: the payment it created, null when refused, and the attempt that
   * payment was authorized for (as its data names it).
   */
  authorize(context: PayLaterSessionContext, signal: string, dropOthers: boolean): Promise<{ payment_id: string | null; authorized_for: string | null }>
  recordOrderCaptures(sessionId: string, orderId: string): Promise<void>
  /**
   * Medusa's records of a cart's order its completion left half-made (medusa-records/finish-order.ts);
   * false when the order is no longer the cart's (a failed completion deleted it meanwhile).
   */
  finishPlacedOrder(row: AttemptRecord, placed: PlacedOrder): Promise<boolean>
  completeCart(context: PayLaterSessionContext): Promise<CompletionOutcome>
  whoseMoney(row: AttemptRecord): Promise<Owner>
  recordOrderOwner(placed: { order_id: string; payment_collection_id: string }): Promise<AttemptRecord | null | undefined>
  settleDetached(row: AttemptRecord, input: Pick<SettleInput, "signal" | "reported" | "throttle_seconds">): Promise<Settlement>
  /** Runs `work` under the lock; `busy` answers when it was not free in time. Any other error propagates. */
  underLock<T>(key: string, seconds: number, busy: () => T | Promise<T>, work: () => Promise<T>): Promise<T>
  takeStatusSlot(sessionId: string, seconds: number): Promise<boolean>
  sleep(ms: number): Promise<void>
  announce(data: PayLaterPaymentSettledData): Promise<void>
  warn(message: string): void
}

/**
 * Emitted when a settlement processed PayLater's word that a payment is paid (a verified `success`
 * notification, or an answer PayLater gave this settlement), with its outcome: something to
 * subscribe to, e.g. to act on `paid_without_order`. Outcome "error" when that settlement threw.
 */
export const PAYLATER_PAYMENT_SETTLED_EVENT = "paylater.payment_settled"

export function medusaSettlementPorts(container: MedusaContainer): SettlementPorts {
  const ledger = () => ledgerModuleOf(container)
  return {
    now: () => new Date(),
    findAttempt: async (id) => (await ledger()?.findAttempt(id)) ?? null,
    currentAttemptOf: (sessionId) => currentAttemptOf(container, sessionId),
    linkAttempt: async (id, links) => {
      await ledger()?.linkAttempt(id, links)
    },
    readSession: (sessionId) => readPayLaterSession(container, sessionId),
    rereadSession: (context) => rereadSessionRow(container, context),
    paymentIdOfAttempt: async (row) => (await paymentOfAttempt(container, row))?.id ?? null,
    collectionHoldsNoPayment: (collectionId) => collectionHoldsNoPayment(container, collectionId),
    askPayLater: (row, signal, links) => askPayLaterAboutRow(container, row, signal, links),
    authorize: async (context, signal, dropOthers) => {
      const result = await authorizeUnderLock(container, context, signal, dropOthers)
      return { payment_id: result?.payment_id ?? null, authorized_for: result ? attemptOfPayment(result) : null }
    },
    recordOrderCaptures: async (sessionId, orderId) => {
      await recordOrderCaptures(container, sessionId, orderId)
    },
    finishPlacedOrder: async (row, placed) => (await finishPlacedOrder(container, row, placed)) !== null,
    completeCart: (context) => completeUnlessRefunded(container, context),
    whoseMoney: (row) => whoseMoney(container, row),
    recordOrderOwner: (placed) => recordOrderOwner(container, placed),
    settleDetached: (row, input) => settleDetachedAttempt(container, row, input),
    underLock: async (key, seconds, busy, work) => {
      let entered = false
      try {
        return await container.resolve(Modules.LOCKING).execute(
          key,
          () => {
            entered = true
            return work()
          },
          { timeout: seconds }
        )
      } catch (error) {
        if (!entered && /timed?[- ]?out/i.test(String((error as Error)?.message ?? ""))) {
          return busy()
        }
        throw error
      }
    },
    takeStatusSlot: (sessionId, seconds) => takeStatusSlot(container, sessionId, seconds),
    sleep: (ms) => sleep(ms),
    announce: async (data) => {
      await container.resolve(Modules.EVENT_BUS).emit({ name: PAYLATER_PAYMENT_SETTLED_EVENT, data })
    },
    warn: (message) => container.resolve(ContainerRegistrationKeys.LOGGER).warn(message),
  }
}

import { setTimeout as sleep } from "node:timers/promises"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderOwner, whoseMoney } from "../medusa-effects/order-owner"
import { collectionHoldsNoPayment } from "../medusa-records/owners"
import { currentAttemptOf, readPayLaterSession } from "../medusa-records/session"
import { attemptOfPayment, paymentOfAttempt } from "../medusa-records/payment-attempt"
import { completeRecordingOwner } from "./completion"
import { settleDetachedAttempt } from "./detached-attempt"
import { authorizeUnderLock, finishUnderCartLock, rereadSessionRow, takeStatusSlot, undoUnplacedUnderCartLock, untilMedusaCreated } from "../medusa-effects/settlement-effects"
import { askPayLaterAboutRow } from "./ask-paylater"
import { underLockOr } from "../medusa-effects/under-lock"
import { recordOrderCaptures } from "../medusa-effects/order-captures"
import type { SettlementPorts } from "./ports"

/**
 * Emitted when a settlement processed PayLater's word that a payment is paid (a verified `success`
 * notification, or an answer PayLater gave this settlement), with its outcome: something to
 * subscribe to, e.g. to act on `paid_without_order`. Outcome "error" when that settlement threw.
 */
export const PAYLATER_PAYMENT_SETTLED_EVENT = "paylater.payment_settled"

/** The settlement ports bound to a Medusa app (ports.ts is the interface; unit tests bind fakes). */
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
    untilMedusaCreated: (sessionId) => untilMedusaCreated(container, sessionId),
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
    finishPlacedOrder: async (row, placed) => (await finishUnderCartLock(container, row, placed)) !== null,
    undoUnplacedOrder: (placed) => undoUnplacedUnderCartLock(container, placed),
    moneyGivenBack: async (id) => {
      const module = ledger()
      return !!module && (await module.moneyGivenBack(id))
    },
    completeCart: (context) => completeRecordingOwner(container, context),
    whoseMoney: (row) => whoseMoney(container, row),
    recordOrderOwner: (placed) => recordOrderOwner(container, placed),
    settleDetached: (row, input) => settleDetachedAttempt(container, row, input),
    underLock: (key, seconds, busy, work) =>
      underLockOr(container, key, seconds, () => busy(), work, (error) => /timed?[- ]?out/i.test(String((error as Error)?.message ?? ""))),
    takeStatusSlot: (sessionId, seconds) => takeStatusSlot(container, sessionId, seconds),
    sleep: (ms) => sleep(ms),
    announce: async (data) => {
      await container.resolve(Modules.EVENT_BUS).emit({ name: PAYLATER_PAYMENT_SETTLED_EVENT, data })
    },
    warn: (message) => container.resolve(ContainerRegistrationKeys.LOGGER).warn(message),
  }
}

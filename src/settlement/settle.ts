import { setTimeout as sleep } from "node:timers/promises"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, type WebhookStatus } from "../lib/paylater"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { recordOrderCaptures } from "./order-captures"
import { viewOfSession } from "./attempt-view"
import { completeUnlessRefunded } from "./completion"
import { recordOrderOwner, whoseMoney } from "../medusa-records/order-owner"
import { heldByNoOrder } from "../modules/paylater-ledger/whose-money"
import { settleDetachedAttempt } from "./detached-attempt"
import { attemptOfPayment, paymentOfAttempt } from "../medusa-records/payment-attempt"
import { readPayLaterSession, type PayLaterSessionContext } from "../medusa-records/session"
import { collectionHoldsNoPayment } from "../medusa-records/owners"
import { authorizeUnderLock, rereadSessionRow, takeStatusSlot } from "./medusa-effects"
import { collectStatusAnswer } from "../process-wide/status-answer"
import { askPayLaterNow, holdsOrderMoney, type AttemptSignal } from "../modules/paylater-ledger/attempt-state"

/** Who is asking: every PayLater signal settles through settlePayLaterSession (Medusa's own "checkout" checks do not). */
type SettlementSignal = Exclude<AttemptSignal, "checkout">

export interface SettleInput {
  session_id: string
  /**
   * The PayLater order a notification or the job is about, when known. An attempt the session no
   * longer stands for (superseded, or its session deleted) is settled from its ledger row.
   */
  paylater_order_id?: string
  signal: SettlementSignal
  /**
   * A verified notification's status. `pending` and `failed` are taken at their word: PayLater is
   * not asked and nothing changes (a late one must never undo a success, and a declined card may be
   * retried on the same link). `success` is confirmed with PayLater before anything is placed.
   */
  reported?: WebhookStatus
  /** Ask PayLater about this session at most once per this many seconds, across all instances. */
  throttle_seconds?: number
  /**
   * When the interval's question was already asked: wait for the next slot (up to one interval)
   * instead of answering from the records. For a shopper's return, whose redirect must reflect a
   * payment made seconds after an earlier visit; a polling screen simply asks again later.
   */
  wait_for_slot?: boolean
}

interface Settled {
  /** The session as it is after settlement. */
  session: PayLaterSessionContext
  /** PayLater's status operation was called by this settlement (answered or not). */
  asked: boolean
  /** This settlement moved the session or placed its order (not a repeat of earlier news). */
  changed: boolean
}

/**
 * The one answer every signal gets. `paid_without_order` is its own outcome on purpose: PayLater
 * has the shopper's money and the payment is recorded, but the cart could not become an order
 * (stock, shipping, a changed cart). It needs somebody to act (complete by hand or refund), so a
 * caller records it and never reads it as a decline.
 */
export type SettlementResult =
  | { outcome: "unknown_session"; session: null; asked: false; changed: false }
  /**
   * An attempt the store no longer has a live session for (deleted, superseded, or whose start
   * threw), settled from its ledger row: paid ones are listed as paid without an order.
   */
  | { outcome: "detached"; session: null; attempt: AttemptRecord; asked: boolean; changed: boolean }
  /**
   * The named attempt's row already holds its order's money: a repeat (a duplicate or late
   * notification). Answered from the row alone, with no session read, lock or question.
   */
  | { outcome: "already_placed"; session: null; attempt: AttemptRecord; order_id: string; asked: false; changed: false }
  | (Settled & { outcome: "paid"; order_id: string | null })
  | (Settled & { outcome: "paid_without_order"; cart_id: string; error: string })
  | (Settled & { outcome: "failed"; reason: "declined" | "expired" })
  | (Settled & { outcome: "pending" })
  /** PayLater did not answer; nothing changed. */
  | (Settled & { outcome: "unavailable" })

const SLOT_POLL_MS = 250

// A concurrent signal for the same session waits this long for the one in progress.
const SETTLE_LOCK_WAIT_SECONDS = 15

/**
 * Emitted when a settlement processed PayLater's word that a payment is paid (a verified `success`
 * notification, or an answer PayLater gave this settlement), with its outcome: something to
 * subscribe to, e.g. to act on `paid_without_order`. Outcome "error" when that settlement threw.
 */
export const PAYLATER_PAYMENT_SETTLED_EVENT = "paylater.payment_settled"

export interface PayLaterPaymentSettledData {
  session_id: string
  signal: SettlementSignal
  outcome: "paid" | "paid_without_order" | "error"
  order_id: string | null
}

/** Medusa recorded the payment (only PayLater's success does that). */
function isPaid(context: PayLaterSessionContext): boolean {
  return context.session_status === "authorized" || context.session_status === "captured"
}

/** What the ledger says, with no question asked and nothing changed. */
function fromRecord(session: PayLaterSessionContext, asked: boolean, changed = false): SettlementResult {
  const view = viewOfSession(session, new Date())
  switch (view.status) {
    case "paid":
      return { outcome: "paid", order_id: view.order_id, session, asked, changed }
    case "declined":
    case "expired":
      return { outcome: "failed", reason: view.status, session, asked, changed }
    default:
      return { outcome: "pending", session, asked, changed }
  }
}

/**
 * Settled without asking PayLater, by the one asking rule (attempt-state.ts askPayLaterNow):
 * already paid with its order (a repeat), a notification's pending/failed, an end PayLater
 * confirmed. Null when PayLater must be asked or a paid attempt still needs Medusa's record and
 * its order.
 */
async function settledWithoutAsking(
  container: MedusaContainer,
  session: PayLaterSessionContext,
  input: SettleInput
): Promise<SettlementResult | null> {
  if (isPaid(session)) {
    if (session.cart_id && !session.order_id) {
      return null
    }
    if (session.for_order && session.order_id) {
      // Heals a point-of-sale payment settled before its order transaction was recorded.
      await recordOrderCaptures(container, session.session_id, session.order_id)
    }
    return { outcome: "paid", order_id: session.order_id, session, asked: false, changed: false }
  }
  const row = session.attempt
  if (row?.state === "paid" && input.reported !== "pending" && input.reported !== "failed") {
    // PayLater said paid (the provider recorded it) but Medusa has not recorded the payment yet.
    // (A notification's pending/failed is taken at its word; reconciliation heals this row.)
    return null
  }
  if (row ? askPayLaterNow(row, { signal: input.signal, reported: input.reported }, new Date()) : input.reported === "success") {
    return null
  }
  const recorded = fromRecord(session, false)
  // A notification's `failed` is its own answer to the caller; the row moves only on PayLater's status.
  return input.reported === "failed" && recorded.outcome !== "failed"
    ? { outcome: "failed", reason: "declined", session, asked: false, changed: false }
    : recorded
}

/** The interval's slot to ask PayLater, waited for when the caller wants that. */
async function statusSlot(container: MedusaContainer, sessionId: string, input: SettleInput): Promise<boolean> {
  const seconds = input.throttle_seconds!
  const until = Date.now() + (input.wait_for_slot ? seconds * 1000 + 500 : 0)
  for (;;) {
    if (await takeStatusSlot(container, sessionId, seconds)) return true
    if (Date.now() >= until) return false
    await sleep(SLOT_POLL_MS)
  }
}

/** Asks PayLater once (through the provider) and applies the one transition its answer calls for. */
async function askAndApply(
  container: MedusaContainer,
  session: PayLaterSessionContext,
  input: SettleInput
): Promise<SettlementResult> {
  let current = session
  let asked = false
  let changed = false
  if (!isPaid(current)) {
    if (input.throttle_seconds && !(await statusSlot(container, current.session_id, input))) {
      return fromRecord(current, false)
    }
    // PayLater is asked once, by the provider inside Medusa's authorization; its answer comes back as a value.
    const { result: authorized, answer } = await collectStatusAnswer(() => authorizeUnderLock(container, current, input.signal))
    asked = answer !== null
    current = await rereadSessionRow(container, authorized ? { ...current, session_status: "authorized" } : current)
    if (!authorized && current.session_gone && current.attempt) {
      // Deleted while this settlement waited for the cart lock: another session of the cart (a
      // double submit) was paid first. This attempt is settled from its row and, if paid, listed.
      // The interval's status slot is already this settlement's: the row's question goes unthrottled.
      return settleDetachedAttempt(container, current.attempt, { ...input, throttle_seconds: undefined })
    }
    if (!authorized) {
      // The provider recorded PayLater's answer in the ledger even though Medusa refused to authorize.
      const answered = answer?.answered === true
      const result = fromRecord(current, asked, answered && current.session_status !== session.session_status)
      return answered || result.outcome !== "pending" || !asked ? result : { outcome: "unavailable", session: current, asked, changed: false }
    }
    changed = true
    if (current.attempt) {
      // Refunds name the Medusa payment from here on (the provider reads no Medusa record).
      // The attempt the provider authorized, as its output names it (payment-attempt.ts).
      const authorizedFor = attemptOfPayment(authorized) ?? current.attempt.paylater_order_id
      await ledgerModuleOf(container)?.linkAttempt(authorizedFor, { payment_id: authorized.payment_id })
    }
  }
  if (current.order_id) {
    // The order exists already (point of sale, or a completion that stopped before its payment): the capture goes onto it.
    await recordOrderCaptures(container, current.session_id, current.order_id)
    await recordOrderOwner(container, { order_id: current.order_id, payment_collection_id: current.payment_collection_id })
  }
  if (!current.cart_id || current.order_id) {
    return { outcome: "paid", order_id: current.order_id, session: current, asked, changed }
  }
  const completion = await completeUnlessRefunded(container, current)
  if (completion.order_id !== null) {
    await listIfExtra(container, current, input)
    return { outcome: "paid", order_id: completion.order_id, session: { ...current, order_id: completion.order_id }, asked, changed: true }
  }
  if (completion.tried) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: ${logRef(current.session_id)} is paid but cart ${logRef(current.cart_id)} could not be completed: ${completion.error}`)
  }
  return { outcome: "paid_without_order", cart_id: current.cart_id, error: completion.error, session: current, asked, changed }
}

/**
 * The one settlement path. Given a PayLater payment session, it asks PayLater at most once (or takes
 * a verified notification's word for pending/failed) and applies one idempotent transition:
 * paid → the payment and its capture are recorded and the cart completed with Medusa's own
 * completion (or, for a point-of-sale session, the capture added to the order); failed or expired →
 * the reason is recorded on the session (by the provider's answer); pending → nothing.
 *
 * Cart completion starts only once PayLater said paid, so an unpaid visit never creates (and rolls
 * back) an order. Per session, settlements run one at a time across instances (locking module): a
 * second signal arriving meanwhile waits, then finds the first one's answer.
 */
export async function settlePayLaterSession(container: MedusaContainer, input: SettleInput): Promise<SettlementResult> {
  let result: SettlementResult
  try {
    result = await settle(container, input)
  } catch (error) {
    if (input.reported === "success") {
      await announce(container, input, { outcome: "error", order_id: null })
    }
    throw error
  }
  if (result.outcome === "already_placed") {
    if (input.reported === "success") await announce(container, input, { outcome: "paid", order_id: result.order_id })
  } else if (
    (result.outcome === "paid" || result.outcome === "paid_without_order") &&
    // PayLater's word processed here: asked now, a verified success, or Medusa recorded it here
    // (authorized by its own completion just before our lock, without asking PayLater again).
    (result.asked || result.changed || input.reported === "success")
  ) {
    await announce(container, input, { outcome: result.outcome, order_id: result.outcome === "paid" ? result.order_id : null })
  }
  return result
}

/** Where the attempt belongs in Medusa, written on its row once settlement has seen it. */
async function linkAttempt(container: MedusaContainer, context: PayLaterSessionContext): Promise<void> {
  const row = context.attempt
  if (!row) return
  const paid = context.session_status === "authorized" || context.session_status === "captured"
  const links = {
    provider_id: context.provider_id,
    payment_collection_id: context.payment_collection_id,
    cart_id: context.cart_id,
    kind: context.for_order ? "point_of_sale" : row.kind,
    // Paid through Medusa's own completion (the storefront's): the payment it recorded.
    // Only the payment authorized for this very attempt (a retried create may have replaced the one it was for).
    payment_id: paid && !row.payment_id ? ((await paymentOfAttempt(container, row))?.id ?? null) : null,
  }
  if (Object.entries(links).some(([key, value]) => value && (row as unknown as Record<string, unknown>)[key] !== value)) {
    await ledgerModuleOf(container)?.linkAttempt(row.paylater_order_id, links)
  }
}

async function announce(
  container: MedusaContainer,
  input: SettleInput,
  what: Pick<PayLaterPaymentSettledData, "outcome" | "order_id">
): Promise<void> {
  const data: PayLaterPaymentSettledData = { session_id: input.session_id, signal: input.signal, ...what }
  await container.resolve(Modules.EVENT_BUS).emit({ name: PAYLATER_PAYMENT_SETTLED_EVENT, data })
}

/**
 * Runs `work` under a lock. Only a lock that was not free in time answers `busy` (somebody else is
 * settling it right now); any error inside the critical section, or from the locking module itself,
 * propagates, so the event bus retries the notification and nothing is reported as pending.
 */
async function underLock<T>(container: MedusaContainer, key: string, seconds: number, busy: () => T, work: () => Promise<T>): Promise<T> {
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
}

/**
 * The session's cart is an order: whose money its attempt is, decided now (whoseMoney): the order's
 * (recorded on the row), or an extra payment settled from its row and, if paid, listed as paid
 * twice. Never authorized into a second Medusa payment on the order.
 */
async function settleForPlacedCart(container: MedusaContainer, context: PayLaterSessionContext, input: SettleInput): Promise<SettlementResult> {
  const row = context.attempt
  if (!row) {
    return fromRecord(context, false)
  }
  if (!row.order_id && !context.session_gone && (await collectionHoldsNoPayment(container, context.payment_collection_id))) {
    // Medusa's completion placed the order and died before recording any payment (fault campaign):
    // this live session's payment is the order's, authorized and captured onto it.
    return askAndApply(container, context, input)
  }
  const owner = await whoseMoney(container, row)
  if (owner.owner === "this_order" || owner.owner === "cannot_tell") {
    // Held by the order, or its completion is still writing which payment it holds: the list decides again later.
    const attempt = owner.owner === "this_order" && !owner.recorded ? ((await ledgerModuleOf(container)?.findAttempt(row.paylater_order_id)) ?? row) : row
    return { outcome: "paid", order_id: owner.order_id, session: { ...context, attempt }, asked: false, changed: false }
  }
  return settleDetachedAttempt(container, row, input)
}

/**
 * The cart became an order while this settlement placed it: held by this payment, or (the storefront
 * completed with another method meanwhile) the order is held by another payment and this one is
 * extra: listed, never left silent.
 */
async function listIfExtra(container: MedusaContainer, context: PayLaterSessionContext, input: SettleInput): Promise<void> {
  const row = context.attempt && (await ledgerModuleOf(container)?.findAttempt(context.attempt.paylater_order_id))
  if (!row) return
  const owner = await whoseMoney(container, row)
  if (heldByNoOrder(owner)) {
    await settleDetachedAttempt(container, row, { ...input, reported: undefined, throttle_seconds: undefined })
  }
}

async function settle(container: MedusaContainer, input: SettleInput): Promise<SettlementResult> {
  const ledger = ledgerModuleOf(container)
  // The ledger first: when the named attempt's money is already its order's (recorded by
  // completion), nothing a repeat says can change that, and the hot path of a retried or
  // duplicated notification stops at one row read.
  const row = input.paylater_order_id ? ((await ledger?.findAttempt(input.paylater_order_id)) ?? null) : null
  if (row && holdsOrderMoney(row)) {
    return { outcome: "already_placed", session: null, attempt: row, order_id: row.order_id!, asked: false, changed: false }
  }
  const before = await readPayLaterSession(container, input.session_id)
  const named =
    input.paylater_order_id && input.paylater_order_id !== before?.attempt?.paylater_order_id
      ? row
      : !before
        ? await ledger?.currentAttemptOf(input.session_id)
        : null
  if (named) {
    // Not the attempt the live session stands for: its row is all there is to settle it by.
    return settleDetachedAttempt(container, named, input)
  }
  if (!before) {
    return { outcome: "unknown_session", session: null, asked: false, changed: false }
  }
  await linkAttempt(container, before)
  if (before.cart_id && before.order_id) {
    return settleForPlacedCart(container, before, input)
  }
  const quick = await settledWithoutAsking(container, before, input)
  if (quick) {
    return quick
  }
  return underLock(container, `paylater:settle:${before.session_id}`, SETTLE_LOCK_WAIT_SECONDS, () => fromRecord(before, false), async () => {
    // Another signal may have settled it while we waited for the lock: read it again. A session's
    // collection keeps its cart, so `before.cart_id` still says which read that takes.
    if (!before.cart_id) {
      const current = await rereadSessionRow(container, before)
      return (await settledWithoutAsking(container, current, input)) ?? (await askAndApply(container, current, input))
    }
    const latest = await readPayLaterSession(container, before.session_id)
    if (!latest) {
      // Deleted while we waited (the paid session of a double submit drops the others): its row as it is now.
      const gone = await rereadSessionRow(container, before)
      return gone.attempt ? settleDetachedAttempt(container, gone.attempt, input) : fromRecord(gone, false)
    }
    if (latest.cart_id && latest.order_id) {
      // The order was placed meanwhile: this attempt holds its money or is the extra payment.
      return settleForPlacedCart(container, latest, input)
    }
    return (await settledWithoutAsking(container, latest, input)) ?? (await askAndApply(container, latest, input))
  })
}

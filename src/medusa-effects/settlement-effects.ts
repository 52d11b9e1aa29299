import { setTimeout as sleep } from "node:timers/promises"
import { completeCartWorkflowId } from "@medusajs/medusa/core-flows"
import { crashPoint } from "../faults/crash-point"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { ATTEMPT_CONTEXT_KEY, SIGNAL_CONTEXT_KEY } from "../modules/paylater-ledger/ledger-port"
import { currentAttemptOf, medusaCreating, type PayLaterSessionContext } from "../medusa-records/session"
import { createStaleAfterMs } from "../medusa-records/create-in-flight"
import { takeStatusSlotIn } from "../limits/status-slot"
import { underLockOr } from "./under-lock"
import { withinCartCompletion } from "../providers/paylater/cart-completion-scope"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { finishPlacedOrder, type PlacedOrder } from "./finish-order"
import { stockNeverReserved, undoIfNeverPlaced } from "./unplaced-order"
import { finishAbandonedCompletion, isEngineRefusal } from "./abandoned-completion"

/**
 * The effects settlement applies, each idempotent and each under the lock the rest of Medusa uses
 * for the same thing, so a webhook, a return, a poll, the job and an admin can run them at once.
 */

// Long enough for a cart completion already holding the cart lock to finish.
const CART_LOCK_WAIT_SECONDS = 5

/**
 * One slot per session per interval (src/limits/status-slot.ts): concurrent callers, even on several
 * servers, ask PayLater once per interval. False when the slot is taken. `now` is kept for callers;
 * the interval starts at the first call (the limiter's own clock).
 */
export async function takeStatusSlot(
  container: MedusaContainer,
  sessionId: string,
  seconds: number,
  now: number = Date.now()
): Promise<boolean> {
  void now
  return takeStatusSlotIn(container, sessionId, seconds)
}

/**
 * Has Medusa record what PayLater answered settlement a moment ago (askPayLaterAboutRow): the
 * provider answers Medusa's authorization from the attempt's row, which settlement names, without
 * asking again. A success creates the payment and its capture once (the payment module returns the
 * recorded payment on a repeat); a failure is written onto the session (status `error`) and refused,
 * quietly. Under the cart's own lock, the one cart completion takes, and with the cart's other
 * unpaid sessions dropped once this one is authorized. The payment's data and id when the session
 * is authorized now, null when it is not.
 */
export async function authorizeUnderLock(
  container: MedusaContainer,
  context: PayLaterSessionContext,
  signal: string,
  /** Settlement's decision (settle.ts): the cart's other unpaid sessions go once this one is authorized. */
  dropOthers: boolean
): Promise<{ data: PayLaterSessionData; payment_id: string } | null> {
  const payment = container.resolve(Modules.PAYMENT)
  return underCartLock(container, context, async () => {
    let authorized
    try {
      const attempt = context.attempt && context.attempt.state !== "never_started" ? { [ATTEMPT_CONTEXT_KEY]: context.attempt.paylater_order_id } : {}
      authorized = await payment.authorizePaymentSession(context.session_id, { [SIGNAL_CONTEXT_KEY]: signal, ...attempt })
    } catch (error) {
      if (!(error instanceof MedusaError)) {
        // Not a refusal (a database error, a bug): settlement must not read it as "not paid yet".
        throw error
      }
      // Not paid: what PayLater said is on the session now.
      return null
    }
    if (!authorized) return null
    crashPoint("settle:after-authorized")
    if (dropOthers) {
      await dropOtherSessions(container, context)
    }
    return { data: (authorized.data ?? {}) as PayLaterSessionData, payment_id: authorized.id }
  })
}

// As long as Medusa's own completion waits for the cart's lock: one running holds it until it has
// placed its order or finished rolling it back.
const COMPLETION_WAIT_SECONDS = 30

/**
 * A cart's order that looks half-made, finished (medusa-effects/finish-order.ts) under the cart's
 * own lock: a completion of the cart still running (Medusa's, from any road, on any instance) holds
 * it, so its order is never "finished" while that completion may still fail and roll it back; its
 * outcome is waited for and read instead.
 */
export function finishUnderCartLock(container: MedusaContainer, row: AttemptRecord, placed: PlacedOrder & { cart_id: string }): Promise<string[] | null> {
  return afterCompletionsOf(container, placed.cart_id, () => finishPlacedOrder(container, row, placed))
}

/**
 * The cart's order, when a failed completion left it behind unplaced (unplaced-order.ts), rolled
 * back under the cart's lock (after any completion of the cart still running): true then.
 */
export function undoUnplacedUnderCartLock(
  container: MedusaContainer,
  placed: { order_id: string; cart_id: string; payment_collection_id: string }
): Promise<boolean> {
  return afterCompletionsOf(container, placed.cart_id, () => undoIfNeverPlaced(container, placed))
}

/** `work` under the cart's lock, once no completion of it runs; a conflict when one does not end in time. */
async function afterCompletionsOf<T>(container: MedusaContainer, cartId: string, work: () => Promise<T>): Promise<T> {
  return underLockOr(container, cartId, COMPLETION_WAIT_SECONDS, () => {
    throw new MedusaError(MedusaError.Types.CONFLICT, `Cart ${cartId} is still being completed; its order is read again on the next signal.`)
  }, work)
}

/** `work` under the cart's lock (a collection's own key without a cart); null when it was not free in time. */
async function underCartLock<T>(container: MedusaContainer, context: PayLaterSessionContext, work: () => Promise<T>): Promise<T | null> {
  const key = context.cart_id ?? `paylater:collection:${context.payment_collection_id}`
  // The cart lock not free in time (a completion holds it): asked again by the next signal.
  return underLockOr<T | null>(container, key, CART_LOCK_WAIT_SECONDS, () => null, work)
}

/**
 * Medusa's cart completion takes the collection's first processable session: once PayLater said
 * this one is paid, the cart's other unpaid sessions (a double submit, a second tab) are deleted
 * under the cart lock, so the order is placed with this payment. Their attempts stay in the ledger
 * (deletePayment marks them session-gone); one paid after all is an extra payment, listed.
 */
async function dropOtherSessions(container: MedusaContainer, context: PayLaterSessionContext): Promise<void> {
  const payment = container.resolve(Modules.PAYMENT)
  const sessions = await payment.listPaymentSessions({ payment_collection_id: context.payment_collection_id }, { select: ["id", "status"] })
  for (const other of sessions) {
    if (other.id !== context.session_id && other.status !== "authorized" && other.status !== "captured") {
      await payment.deletePaymentSession(other.id)
    }
  }
}

// A settlement waits at most this long for Medusa's create of the session (as long as a second signal
// waits for its lock), then leaves the session to the next signal. Counted in polls, not by the clock:
// a clock that jumps (or a test's frozen one) must not end or stretch the wait.
const MEDUSA_CREATE_WAIT_MS = 15_000
const MEDUSA_CREATE_POLL_MS = 100

/**
 * Waits until Medusa's create of the session has written the provider's answer, or can no longer be
 * running (medusa-records/session.ts `medusaCreating`), or deleted the session (the provider's start
 * threw). False when none of these happened in time.
 */
export async function untilMedusaCreated(container: MedusaContainer, sessionId: string, waitMs = MEDUSA_CREATE_WAIT_MS): Promise<boolean> {
  const payment = container.resolve(Modules.PAYMENT)
  for (let polls = Math.ceil(waitMs / MEDUSA_CREATE_POLL_MS); ; polls--) {
    const [[session], attempt] = await Promise.all([
      payment.listPaymentSessions({ id: sessionId }, { select: ["id", "data", "created_at", "provider_id"], take: 1 }),
      currentAttemptOf(container, sessionId),
    ])
    if (!session || !medusaCreating(session, attempt, createStaleAfterMs(container, session.provider_id))) return true
    if (polls <= 0) return false
    await sleep(MEDUSA_CREATE_POLL_MS)
  }
}

/** The session row (status and data) and its ledger row again, after something may have written to them. */
export async function rereadSessionRow(
  container: MedusaContainer,
  context: PayLaterSessionContext
): Promise<PayLaterSessionContext> {
  const [[row], attempt] = await Promise.all([
    container.resolve(Modules.PAYMENT).listPaymentSessions({ id: context.session_id }, { select: ["id", "status"], take: 1 }),
    currentAttemptOf(container, context.session_id),
  ])
  const withAttempt = { ...context, attempt: attempt ?? context.attempt }
  return row
    ? { ...withAttempt, session_status: row.status }
    : { ...withAttempt, session_gone: true }
}

// The cart lock itself waits; these retries only cover a run that gave up on it.
const COMPLETE_ATTEMPTS = 3
const COMPLETE_PAUSE_MS = 500

function isLockConflict(message: string): boolean {
  return /lock|already being completed|conflict/i.test(message)
}

async function orderOfCart(container: MedusaContainer, cartId: string): Promise<string | null> {
  const {
    data: [link],
  } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return link?.order_id ?? null
}

export type CartCompletion = { order_id: string } | { order_id: null; error: string }

/**
 * Medusa's own cart completion, run top level so that it takes the cart lock (nested, its lock step
 * is skipped). Only called for a session whose payment Medusa has recorded (authorizeUnderLock):
 * completion's authorization then returns that payment at once, so it never asks PayLater, and an
 * unpaid visit never creates (and rolls back) an order. Safe to repeat: a second run finds the order
 * and creates nothing.
 */
export async function completePaidCart(container: MedusaContainer, cartId: string): Promise<CartCompletion> {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE)
  let message = "cart completion did not finish"
  for (let attempt = 1; attempt <= COMPLETE_ATTEMPTS; attempt++) {
    let run
    const startedAt = Date.now()
    try {
      // In the completion's scope: its rollback's refund of the captured payment is refused (cart-completion-scope.ts).
      run = await withinCartCompletion(cartId, () => engine.run(completeCartWorkflowId, { input: { id: cartId }, throwOnError: false }))
    } catch (thrown) {
      // The engine itself gave the run up mid-way ("Updating Status ... is not allowed"): a completion
      // that failed, never an error for the caller's answer. Its rollback never runs and it keeps the
      // cart's lock until the lease ends, so this caller finishes that rollback now (abandoned-completion.ts).
      message = (thrown as Error)?.message ?? String(thrown)
      if (isEngineRefusal(thrown)) await finishAbandonedCompletion(container, cartId, startedAt)
      break
    }
    const { result, errors, transaction } = run
    const error = errors?.[0]?.error as { message?: string } | undefined
    const orderId = (result as { id?: string } | undefined)?.id
    if (!error && transaction?.hasFinished?.() && orderId) {
      // A repeat returns the cart's order as it finds it: one a failed run left behind (its rollback
      // interrupted) is not placed, whatever the run answers.
      if (!(await stockNeverReserved(container, orderId))) return { order_id: orderId }
      message = "the cart's order was never placed by Medusa's stock check (a failed completion's leftover)"
      break
    }
    message = error?.message ?? message
    if (error && !isLockConflict(message)) {
      break
    }
    if (attempt < COMPLETE_ATTEMPTS) {
      await sleep(COMPLETE_PAUSE_MS * attempt)
    }
  }
  // Another run (a webhook beside a return) may have placed it meanwhile; an order whose managed
  // stock was never reserved is a failed run's unfinished rollback, not an order (unplaced-order.ts).
  const orderId = await orderOfCart(container, cartId)
  return orderId && !(await stockNeverReserved(container, orderId)) ? { order_id: orderId } : { order_id: null, error: message }
}

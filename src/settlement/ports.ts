import type { AttemptLinkFields, AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { Owner } from "../modules/paylater-ledger/whose-money"
import type { SettlementSignal } from "../modules/paylater-ledger/attempt-state"
import type { PayLaterSessionContext } from "../medusa-records/session"
import type { PlacedOrder } from "../medusa-effects/finish-order"
import type { CompletionOutcome } from "./completion"
import type { RowAnswer } from "./ask-paylater"
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
  /**
   * Waits while Medusa's create of the session is still to write the provider's answer
   * (medusa-records/session.ts `medusaCreating`): true once written or the session is gone, false
   * when it was not written in time.
   */
  untilMedusaCreated(sessionId: string): Promise<boolean>
  /** Medusa's session status and the current row again, after a refused authorization. */
  rereadSession(context: PayLaterSessionContext): Promise<PayLaterSessionContext>
  /** The Medusa payment authorized for this very attempt (medusa-records/payment-attempt.ts), if any. */
  paymentIdOfAttempt(row: AttemptRecord): Promise<string | null>
  collectionHoldsNoPayment(collectionId: string): Promise<boolean>
  /**
   * PayLater's status for the row, asked at the registration that started it and recorded on the
   * row with `links` (ask-paylater.ts): the one road to PayLater's status.
   */
  askPayLater(row: AttemptRecord, signal: SettlementSignal, links?: AttemptLinks): Promise<RowAnswer>
  /**
   * Medusa's authorization of the session under the cart lock, answered by the provider from the
   * row settlement just recorded (it asks PayLater nothing), the cart's other unpaid sessions then
   * dropped under the same lock: the payment it created, null when refused, and the attempt that
   * payment was authorized for (as its data names it).
   */
  authorize(context: PayLaterSessionContext, signal: string, dropOthers: boolean): Promise<{ payment_id: string | null; authorized_for: string | null }>
  recordOrderCaptures(sessionId: string, orderId: string): Promise<void>
  /**
   * Medusa's records of a cart's order its completion left half-made (medusa-effects/finish-order.ts),
   * under the cart's lock, so never while a completion of the cart is still writing (or rolling back)
   * that order; false when the order is no longer the cart's (a failed completion deleted it
   * meanwhile, or it was never placed by Medusa's stock check and its rollback was finished).
   */
  finishPlacedOrder(row: AttemptRecord, placed: PlacedOrder & { cart_id: string }): Promise<boolean>
  /**
   * The cart's order rolled back when a failed completion left it unplaced (its managed stock never
   * reserved, nothing captured on it), under the cart's lock: true then (medusa-effects/unplaced-order.ts).
   */
  undoUnplacedOrder(placed: { order_id: string; cart_id: string; payment_collection_id: string }): Promise<boolean>
  /**
   * Whether any of the attempt's money went back to the shopper, or may have (the ledger's
   * `moneyGivenBack`): the money plan's fact settlement reads before completing a cart.
   */
  moneyGivenBack(paylaterOrderId: string): Promise<boolean>
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

import type { AttemptKind, AttemptSignal, AttemptState, StatusCode } from "./attempt-state"
import type { BigNumberInput } from "@medusajs/framework/types"
import type { BeginRefundInput, BeginRefundResult, SettleRefundInput } from "./types"
import { processSlot } from "../../process-wide/process-slot"
import { LEDGER_PORT_SLOT } from "../../process-wide/slot-keys"

/**
 * What the payment provider needs from the ledger, and nothing more. The provider lives in Medusa's
 * payment module, whose container cannot resolve the plugin's module; rather than reach into
 * Medusa's module registry, the plugin's module hands itself over when Medusa builds it
 * (`provideLedger`), and the provider asks for the port (`ledgerPort`). Unit tests provide an
 * in-memory one. See docs/architecture.md.
 */

/** Key of Medusa's provider context through which settlement tells the provider which signal asked. */
export const SIGNAL_CONTEXT_KEY = "paylater_signal"

/**
 * Key of Medusa's provider context through which settlement names the attempt it read under its
 * lock, so the provider asks about it without reading the ledger again. Still checked against the
 * session (the provider asks only about an attempt of the session it authorizes).
 */
export const ATTEMPT_CONTEXT_KEY = "paylater_attempt"

/**
 * Key of Medusa's provider context with which the money plan's executor retires a session whose
 * money went back (src/money-plan/apply.ts): Medusa's session update asks the provider first, and
 * this update must not start or ask anything at PayLater.
 */
export const RETIRE_SESSION_CONTEXT_KEY = "paylater_retire_session"

export interface WriteAheadInput {
  paylater_order_id: string
  kind: AttemptKind
  session_id: string
  /** The provider (so the registration: outlet, credentials) that starts it: asked and refunded there only. */
  provider_id?: string | null
  /** Public-safe fingerprint of the PayLater account the create goes to (providers/paylater/registration.ts `accountOf`). */
  paylater_account?: string | null
  /** When known at the start (a store request names it): where the attempt belongs. */
  payment_collection_id?: string | null
  /** Two-decimal QAR text (exact). */
  amount: string
  currency_code: string
  /** An upper bound, taken before the call: never later than PayLater's own expiry. */
  expires_at: Date | null
  /** The attempt this one replaces, if any: it is marked superseded in the same write. */
  supersedes?: string | null
  /** Public-safe: which merchant account it was sent under. */
  detail?: Record<string, unknown> | null
}

export interface StatusReport {
  code: StatusCode
  message?: string | null
  paylater_ref?: string | null
  signal: AttemptSignal
  at?: Date
  /**
   * Where the attempt belongs in Medusa, written with the answer (one write instead of two), as
   * linkAttempt would: a null never overwrites.
   */
  links?: AttemptLinkFields
}

/** The row's links to Medusa (linkAttempt). */
export interface AttemptLinkFields {
  payment_collection_id?: string | null
  cart_id?: string | null
  provider_id?: string | null
  payment_id?: string | null
  kind?: string
}

/** The links that would change the row: set, and not what it holds. */
export function linkChanges(row: object | null | undefined, links: AttemptLinkFields | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(links ?? {}).filter(([key, value]) => value && (row as Record<string, unknown> | undefined)?.[key] !== value))
}

export interface AttemptRecord {
  id: string
  paylater_order_id: string
  kind: AttemptKind
  session_id: string
  provider_id: string | null
  /** Null on rows written before attempts recorded it. */
  paylater_account?: string | null
  payment_collection_id: string | null
  cart_id: string | null
  order_id: string | null
  payment_id: string | null
  amount: BigNumberInput
  raw_amount?: BigNumberInput | null
  currency_code: string
  expires_at: Date | string | null
  state: AttemptState
  last_status_code: number | null
  last_status_at: Date | string | null
  last_status_signal: string | null
  /** When PayLater first said paid (written once); null until then. */
  paid_at?: Date | string | null
  paylater_ref: string | null
  superseded_by: string | null
  session_gone_at: Date | string | null
  start_error: string | null
  next_ask_at?: Date | string | null
  asks?: number
  completion_tries?: number
  completion_next_at?: Date | string | null
  completion_error?: string | null
  settlement_failures?: number
  settlement_failing_since?: Date | string | null
  settlement_error?: string | null
  detail: Record<string, unknown> | null
  created_at?: Date | string
}

export interface AttemptLedger {
  /** Written before PayLater is called. Idempotent per PayLater order id. */
  writeAhead(input: WriteAheadInput): Promise<void>
  /** PayLater accepted the create. */
  recordStarted(paylaterOrderId: string, input: { expires_at: Date | null; detail?: Record<string, unknown> | null }): Promise<void>
  /** The create failed; `maybe_landed` when PayLater may have taken it anyway. */
  recordStartFailed(paylaterOrderId: string, input: { maybe_landed: boolean; error_code: string }): Promise<void>
  /** PayLater's word about it. Null when no row has that id. */
  recordStatus(paylaterOrderId: string, report: StatusReport): Promise<AttemptRecord | null>
  /** PayLater was asked about it and did not answer: asked again later (its next-ask time). */
  recordUnanswered(paylaterOrderId: string): Promise<AttemptRecord | null>
  /** Medusa deleted the session: its attempts stay, and stay asked about while payable. */
  markSessionGone(sessionId: string): Promise<void>
  findAttempt(paylaterOrderId: string): Promise<AttemptRecord | null>
  /** The session's latest attempt not superseded. */
  currentAttemptOf(sessionId: string): Promise<AttemptRecord | null>
}

export interface RefundLedgerPort {
  beginRefund(input: BeginRefundInput): Promise<BeginRefundResult>
  settleRefund(attemptId: string, input: SettleRefundInput): Promise<void>
  /** What PayLater accepted as refunded of an attempt, in all (two-decimal text). */
  refundedAmount(paylaterOrderId: string): Promise<string>
  /** Any of it went back to the shopper, or may have (a refund accepted, unanswered or under way). */
  moneyGivenBack(paylaterOrderId: string): Promise<boolean>
}

/**
 * The status-call slot settlement takes before asking PayLater (src/limits/status-slot.ts), for the
 * provider's own status calls (Medusa's authorization from a storefront's cart completion, its
 * status and retrieve calls): one PayLater status call per session per interval, whichever road asks.
 */
export interface StatusSlotPort {
  /** True when this interval's status call about the session is the caller's; false when it is taken or the store is unreachable. */
  takeStatusSlot(sessionId: string, seconds: number): Promise<boolean>
}

export type LedgerPort = AttemptLedger & RefundLedgerPort & StatusSlotPort

/** Called by the plugin's module when Medusa builds it. */
export function provideLedger(ledger: LedgerPort): void {
  // Process-wide, not module-level: the provider and the module may come from two copies of this
  // package in one process (src/process-wide/process-slot.ts).
  processSlot<LedgerPort>(LEDGER_PORT_SLOT).set(ledger)
}

/** The ledger, or null when the plugin's module is not loaded. */
export function ledgerPort(): LedgerPort | null {
  return processSlot<LedgerPort>(LEDGER_PORT_SLOT).get() ?? null
}

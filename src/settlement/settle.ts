import type { MedusaContainer } from "@medusajs/framework/types"
import { logRef, type WebhookStatus } from "../lib/paylater"
import { linkChanges, type AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { attemptFactsOf, viewOfSession } from "./attempt-view"
import { mayHaveOtherSessions, type PayLaterSessionContext } from "../medusa-records/session"
import { completionBackoffOf, holdsOrderMoney, type SettlementSignal, type ViewFacts } from "../modules/paylater-ledger/attempt-state"
import {
  afterCompletionStep,
  answerStep,
  completionStep,
  paidSessionStep,
  placedCartStep,
  placeStep,
  recordedStep,
  settlementStep,
  type PlacedCartFacts,
  type SettlementStep,
} from "../modules/paylater-ledger/settlement-step"
import type { AttemptLinks, SettlementPorts } from "./ports"
import { medusaSettlementPorts, PAYLATER_PAYMENT_SETTLED_EVENT } from "./medusa-ports"
import { sessionMoneyLockKey } from "../money-plan/refund-plan"
import { crashPoint } from "../faults/crash-point"
import { waitForStatusSlot } from "../limits/status-interval"

export { PAYLATER_PAYMENT_SETTLED_EVENT }


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
 * What settlement did. `paid_without_order` is its own outcome on purpose: PayLater has the
 * shopper's money and the payment is recorded, but the cart could not become an order (stock,
 * shipping, a changed cart). It needs somebody to act (complete by hand or refund), so a caller
 * records it and never reads it as a decline.
 */
export type Settlement =
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
  /** `retrying`: the completion is tried again later (its backoff), unless the money went back. */
  | (Settled & { outcome: "paid_without_order"; cart_id: string; error: string; retrying: boolean })
  | (Settled & { outcome: "failed"; reason: "declined" | "expired" })
  | (Settled & { outcome: "pending" })
  /** PayLater did not answer; nothing changed. */
  | (Settled & { outcome: "unavailable" })

/**
 * The one answer every signal gets: what settlement did, and the facts its screens are drawn from
 * (`viewOf`, `returnDecisionOf`), as settlement left them: the row's state and expiry, the order
 * the payment is on. Null when there is nothing (an unknown session). Callers map these to their
 * answer; none works them out again from Medusa's records.
 */
export type SettlementResult = Settlement & { facts: ViewFacts | null }

// A concurrent signal for the same session waits this long for the one in progress.
const SETTLE_LOCK_WAIT_SECONDS = 15

export interface PayLaterPaymentSettledData {
  session_id: string
  signal: SettlementSignal
  outcome: "paid" | "paid_without_order" | "error"
  order_id: string | null
}

/** Medusa recorded the payment (only PayLater's success does that): its record, never the attempt's state. */
function medusaRecorded(context: PayLaterSessionContext): boolean {
  return context.session_status === "authorized" || context.session_status === "captured"
}

/** What the ledger says, with no question asked and nothing changed. */
function fromRecord(session: PayLaterSessionContext, now: Date, asked: boolean, changed = false): Settlement {
  const view = viewOfSession(session, now)
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

/** The interval's slot to ask PayLater, waited for when the caller wants that. */
function statusSlot(ports: SettlementPorts, sessionId: string, input: SettleInput): Promise<boolean> {
  const seconds = input.throttle_seconds!
  return waitForStatusSlot({ take: () => ports.takeStatusSlot(sessionId, seconds), seconds, wait: !!input.wait_for_slot, sleep: ports.sleep })
}

/**
 * The steps that act on Medusa, each decided by the pure steps (settlement-step.ts) from what this
 * settlement knows at that point, and applied here. PayLater is asked once, unless its success is on
 * the row already or Medusa recorded the payment. A paid session's payment is then recorded by Medusa
 * (the provider answers the authorization from the row: it asks nothing) and the cart completed with
 * Medusa's own completion. The payment is recorded before the order exists on purpose: Medusa's
 * completion creates the order (and its link to the cart) before it authorizes the session, and the
 * store API lets a shopper choose another method on that cart meanwhile, deleting the session; a
 * payment recorded first survives that and stays the order's
 * (integration-tests/http/fast-timeout-app/paylater-order-owner.ts). A decline is recorded on the
 * session.
 */
async function authorizeAndComplete(
  ports: SettlementPorts,
  session: PayLaterSessionContext,
  input: SettleInput,
  /** The row's new links to Medusa, not written yet: with PayLater's answer, or else first thing. */
  links: AttemptLinks | null = null
): Promise<Settlement> {
  let current = session
  let asked = false
  /** Medusa's authorization, when a failure's already returned a payment (recorded meanwhile). */
  let authorized: Authorization | null = null
  const row = current.attempt
  const first = paidSessionStep({ medusa_recorded: medusaRecorded(current), row })
  if (links && first.step !== "ask_paylater") await ports.linkAttempt(row!.paylater_order_id, links)
  if (first.step === "answer_from_row") return fromRecord(current, ports.now(), false)
  if (first.step === "ask_paylater") {
    if (input.throttle_seconds && !(await statusSlot(ports, current.session_id, input))) {
      if (links) await ports.linkAttempt(row!.paylater_order_id, links)
      return fromRecord(current, ports.now(), false)
    }
    // Written with the answer, before anything is authorized or placed: a process killed after
    // Medusa recorded the payment leaves a row that already names its collection and cart.
    const answer = await ports.askPayLater(row!, input.signal, links ?? undefined)
    const answered = answer.kind === "answered" ? answer : null
    const step = answerStep({
      kind: answer.kind,
      state: answered?.row.state ?? row!.state,
      state_before: row!.state,
      code: answered?.status.code,
      view_pending: fromRecord(current, ports.now(), false).outcome === "pending",
    })
    asked = answer.kind !== "unrouted"
    if (answered) current = { ...current, attempt: answered.row }
    switch (step.step) {
      case "answer_unavailable":
        return { outcome: "unavailable", session: current, asked, changed: false }
      case "answer_from_row":
        return fromRecord(current, ports.now(), step.asked)
      case "answer_not_paid":
        return fromRecord(current, ports.now(), true, step.changed)
      case "authorize_failure":
        // A failure is Medusa's record of the session too (status `error`).
        authorized = await ports.authorize(current, input.signal, dropsOthers(current))
        if (!authorized.payment_id) return fromRecord(current, ports.now(), true, current.attempt!.state !== row!.state)
        current = await ports.rereadSession(current)
        break
      case "record_payment":
        break
    }
  }
  const changed = first.step !== "place"
  if (changed) {
    // PayLater's success is on the row, nothing in Medusa yet: the next signal records it from the row.
    if (!medusaRecorded(current)) crashPoint("settle:after-paid-recorded")
    const recorded = await recordPayment(ports, current, input, asked, authorized)
    if (!("recorded" in recorded)) return recorded
    current = recorded.recorded
  }
  return place(ports, current, input, asked, changed)
}

/** Medusa recorded the payment: the order it goes on, or the cart completed (settlement-step.ts `placeStep`). */
async function place(ports: SettlementPorts, current: PayLaterSessionContext, input: SettleInput, asked: boolean, changed: boolean): Promise<Settlement> {
  const step = placeStep({ cart_id: current.cart_id, order_id: current.order_id, has_attempt: !!current.attempt })
  switch (step.step) {
    case "finish_placed_order": {
      // A cart's order whose completion died before recording any payment: its records are finished
      // (and a person told: its stock and confirmation may be missing too).
      const placed = { order_id: current.order_id!, payment_collection_id: current.payment_collection_id, payment_id: current.attempt!.payment_id ?? null, cart_id: current.cart_id! }
      // Read before the cart lock: a completion that failed since deleted that order; the cart is completed instead.
      if (!(await ports.finishPlacedOrder(current.attempt!, placed))) return place(ports, { ...current, order_id: null }, input, asked, changed)
      await ports.recordOrderOwner({ order_id: current.order_id!, payment_collection_id: current.payment_collection_id })
      return { outcome: "paid", order_id: current.order_id, session: current, asked, changed }
    }
    case "record_order_captures":
      // A point-of-sale order, whose capture goes onto it.
      await ports.recordOrderCaptures(current.session_id, current.order_id!)
      await ports.recordOrderOwner({ order_id: current.order_id!, payment_collection_id: current.payment_collection_id })
      return { outcome: "paid", order_id: current.order_id, session: current, asked, changed }
    case "answer_paid":
      return { outcome: "paid", order_id: current.order_id, session: current, asked, changed }
    case "complete_cart": {
      // Medusa recorded the payment: just now (the cart had other sessions), or before (a completion
      // that failed earlier, or the storefront's own).
      const placed = await placeOrder(ports, current, input, asked)
      return placed.outcome === "paid" ? placed : { ...placed, changed }
    }
  }
}

type Authorization = Awaited<ReturnType<SettlementPorts["authorize"]>>

/**
 * Medusa's completion takes the collection's first processable session: once this one is paid and
 * recorded, the cart's other unpaid sessions (a double submit, a second tab) are dropped under the
 * same cart lock, so the order is placed with this payment.
 */
function dropsOthers(context: PayLaterSessionContext): boolean {
  return !!context.cart_id && mayHaveOtherSessions(context)
}

/**
 * A paid cart completed with Medusa's own completion when the money plan allows (settlement-step.ts
 * `completionStep`), and whose money its order holds.
 */
async function placeOrder(
  ports: SettlementPorts,
  current: PayLaterSessionContext,
  input: SettleInput,
  asked: boolean
): Promise<Extract<Settlement, { outcome: "paid" | "paid_without_order" }>> {
  const row = current.attempt
  let step = completionStep({ row }, ports.now())
  if (step.step === "read_given_back") step = completionStep({ row, given_back: await ports.moneyGivenBack(row!.paylater_order_id) }, ports.now())
  if (step.step === "not_now") {
    return { outcome: "paid_without_order", cart_id: current.cart_id!, error: step.error, retrying: step.retrying, session: current, asked, changed: false }
  }
  const completion = await ports.completeCart(current)
  if (completion.order_id !== null) {
    await listIfExtra(ports, current, input, completion.held_by)
    return { outcome: "paid", order_id: completion.order_id, session: { ...current, order_id: completion.order_id }, asked, changed: true }
  }
  ports.warn(`PayLater: ${logRef(current.session_id)} is paid but cart ${logRef(current.cart_id!)} could not be completed: ${completion.error}`)
  // The failure is recorded with its backoff (completion.ts), and tried again until the money goes
  // back, but only while the paid session is still live: Medusa's rollback usually deletes it (the
  // money is then listed and refunded, never this cart's order).
  const retrying = isLiveSession(await ports.rereadSession(current))
  return { outcome: "paid_without_order", cart_id: current.cart_id!, error: completion.error, retrying, session: current, asked, changed: false }
}

/** A session whose paid cart may still be completed with it: Medusa has it, not canceled (a refund cancels it). */
function isLiveSession(session: PayLaterSessionContext): boolean {
  return !session.session_gone && session.session_status !== "canceled"
}

/**
 * Medusa records the payment PayLater confirmed (the provider answers from the row), and the row
 * names it. Otherwise the answer settlement gives: the session was deleted meanwhile (another session
 * of the cart was paid first: this attempt is settled from its row and, if paid, listed), or the cart
 * lock was busy (the records as they are; the next signal records it).
 */
async function recordPayment(
  ports: SettlementPorts,
  current: PayLaterSessionContext,
  input: SettleInput,
  asked: boolean,
  /** Medusa's authorization of the session already taken by this settlement (a decline's, paid meanwhile). */
  authorized: Authorization | null = null
): Promise<{ recorded: PayLaterSessionContext } | Settlement> {
  const { payment_id: paymentId, authorized_for: authorizedFor } = authorized ?? (await ports.authorize(current, input.signal, dropsOthers(current)))
  const now = paymentId ? null : await ports.rereadSession(current)
  const attempt = current.attempt?.paylater_order_id ?? null
  const step = recordedStep({ payment_id: paymentId, authorized_for: authorizedFor, attempt, gone_with_row: !!now?.session_gone && !!now.attempt })
  switch (step.step) {
    case "settle_detached":
      // The interval's status slot is already this settlement's: the row's question goes unthrottled.
      return ports.settleDetached(now!.attempt!, { ...input, throttle_seconds: undefined })
    case "answer_from_row":
      return fromRecord(now!, ports.now(), asked)
    case "link_payment": {
      const recorded = { ...current, session_status: "authorized", attempt: current.attempt ? { ...current.attempt, payment_id: paymentId } : null }
      // Refunds name the Medusa payment from here on (the provider reads no Medusa record), on the
      // attempt the payment was authorized for as its data names it (medusa-records/payment-attempt.ts).
      if (step.other_attempt) await ports.linkAttempt(step.other_attempt, { payment_id: paymentId })
      else await linkAttempt(ports, current, paymentId!)
      return { recorded }
    }
  }
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
  return settleWith(medusaSettlementPorts(container), input)
}

/** settlePayLaterSession against any ports (unit tests use fakes). */
export async function settleWith(ports: SettlementPorts, input: SettleInput): Promise<SettlementResult> {
  let result: Settlement
  try {
    result = await settle(ports, input)
  } catch (error) {
    if (input.reported === "success") {
      await announce(ports, input, { outcome: "error", order_id: null })
    }
    throw error
  }
  if (result.outcome === "already_placed") {
    if (input.reported === "success") await announce(ports, input, { outcome: "paid", order_id: result.order_id })
  } else if (
    (result.outcome === "paid" || result.outcome === "paid_without_order") &&
    // PayLater's word processed here: asked now, a verified success, or Medusa recorded it here
    // (authorized by its own completion just before our lock, without asking PayLater again).
    (result.asked || result.changed || input.reported === "success")
  ) {
    await announce(ports, input, { outcome: result.outcome, order_id: result.outcome === "paid" ? result.order_id : null })
  }
  return { ...result, facts: factsOf(result) }
}

function factsOf(result: Settlement): ViewFacts | null {
  switch (result.outcome) {
    case "unknown_session":
      return null
    case "detached":
      // No live session: whatever the row's state, this attempt's cart is not completing with it.
      return { state: result.attempt.state, expires_at: result.attempt.expires_at, order_id: null, completion_failed: true }
    case "already_placed":
      return { state: result.attempt.state, expires_at: result.attempt.expires_at, order_id: result.order_id }
    case "paid":
      return { ...attemptFactsOf(result.session), order_id: result.order_id }
    case "paid_without_order":
      // A completion of the paid cart failed (or waits out its backoff after one): "paid, not placed",
      // as the return says, and while it is tried again, so; a later try that places it turns the
      // screen to "paid".
      return { ...attemptFactsOf(result.session), order_id: null, completion_failed: true, completion_retrying: result.retrying }
    default: {
      // The same when another signal holds the session (answered from the records): a failure the row
      // recorded, whether or not Medusa's rollback kept the paid session; tried again while that
      // session is live (the holder finds out whether the money went back).
      const failed = completionBackoffOf(result.session.attempt) !== null
      return {
        ...attemptFactsOf(result.session),
        order_id: result.session.order_id,
        completion_failed: failed,
        completion_retrying: failed && isLiveSession(result.session),
      }
    }
  }
}

/**
 * Where the attempt belongs in Medusa, written on its row once settlement has seen it; `paymentId`:
 * the payment this settlement just had Medusa record.
 */
async function linkAttempt(ports: SettlementPorts, context: PayLaterSessionContext, paymentId?: string): Promise<void> {
  const links = await newLinksOf(ports, context, paymentId)
  if (links) await ports.linkAttempt(context.attempt!.paylater_order_id, links)
}

/** The row's links to Medusa as settlement sees them, when any would change the row; else null. */
async function newLinksOf(ports: SettlementPorts, context: PayLaterSessionContext, paymentId?: string): Promise<AttemptLinks | null> {
  const row = context.attempt
  if (!row) return null
  const links = {
    provider_id: context.provider_id,
    payment_collection_id: context.payment_collection_id,
    cart_id: context.cart_id,
    kind: context.for_order ? "point_of_sale" : row.kind,
    // Otherwise, paid through Medusa's own completion (the storefront's): the payment it recorded,
    // only when authorized for this very attempt (a retried create may have replaced the one it was for).
    payment_id: paymentId ?? (medusaRecorded(context) && !row.payment_id ? await ports.paymentIdOfAttempt(row) : null),
  }
  return Object.keys(linkChanges(row, links)).length ? links : null
}

async function announce(ports: SettlementPorts, input: SettleInput, what: Pick<PayLaterPaymentSettledData, "outcome" | "order_id">): Promise<void> {
  await ports.announce({ session_id: input.session_id, signal: input.signal, ...what })
}

/**
 * The session's cart is an order: whose money its attempt is, decided now (settlement-step.ts
 * `placedCartStep`, one fact at a time) and applied.
 */
async function settleForPlacedCart(ports: SettlementPorts, context: PayLaterSessionContext, input: SettleInput): Promise<Settlement> {
  const row = context.attempt
  const facts: PlacedCartFacts = { row, session_gone: !!context.session_gone, order_id: context.order_id, cart_id: context.cart_id }
  for (;;) {
    const step = placedCartStep(facts)
    switch (step.step) {
      case "answer_from_row":
        return fromRecord(context, ports.now(), false)
      case "read_collection":
        facts.collection_holds_no_payment = await ports.collectionHoldsNoPayment(context.payment_collection_id)
        break
      case "record_onto_order":
        return authorizeAndComplete(ports, context, input)
      case "undo_leftover":
        facts.leftover_undone = await ports.undoUnplacedOrder({ order_id: context.order_id!, cart_id: context.cart_id!, payment_collection_id: context.payment_collection_id })
        break
      case "complete_again":
        return authorizeAndComplete(ports, { ...context, order_id: null }, input)
      case "decide_owner":
        facts.owner = await ports.whoseMoney(row!)
        break
      case "answer_order_holds": {
        const attempt = step.read_row ? ((await ports.findAttempt(row!.paylater_order_id)) ?? row) : row
        return { outcome: "paid", order_id: step.order_id, session: { ...context, attempt }, asked: false, changed: false }
      }
      case "settle_detached":
        return ports.settleDetached(row!, input)
    }
  }
}

/**
 * The cart became an order while this settlement placed it: held by this payment, or (the storefront
 * completed with another method meanwhile) the order is held by another payment and this one is
 * extra: listed, never left silent.
 */
async function listIfExtra(
  ports: SettlementPorts,
  context: PayLaterSessionContext,
  input: SettleInput,
  heldBy: AttemptRecord | null | undefined
): Promise<void> {
  const mine = context.attempt?.paylater_order_id ?? null
  if (afterCompletionStep({ attempt: mine, held_by: heldBy }).step === "done") return
  const row = await ports.findAttempt(mine!)
  if (!row) return
  if (afterCompletionStep({ attempt: mine, held_by: heldBy, owner: await ports.whoseMoney(row) }).step === "settle_detached") {
    await ports.settleDetached(row, { ...input, reported: undefined, throttle_seconds: undefined })
  }
}

/** What settlement reads, once, under its lock: the session with its current row, and a gone session's latest row. */
interface SettlementRead {
  session: PayLaterSessionContext | null
  latest_of_gone_session: AttemptRecord | null
}

async function readSettlement(ports: SettlementPorts, input: SettleInput): Promise<SettlementRead> {
  const session = await ports.readSession(input.session_id)
  const latest = !session && !input.paylater_order_id ? await ports.currentAttemptOf(input.session_id) : null
  return { session, latest_of_gone_session: latest }
}

function stepOf(named: AttemptRecord | null, read: SettlementRead, input: SettleInput, now: Date): SettlementStep {
  const session = read.session
  return settlementStep(
    {
      named_order_id: input.paylater_order_id,
      named,
      session: session && {
        medusa_recorded: medusaRecorded(session),
        cart_id: session.cart_id,
        order_id: session.order_id,
        for_order: session.for_order,
        attempt: session.attempt,
        retired: session.session_status === "canceled",
        medusa_creating: !!session.medusa_creating,
      },
      latest_of_gone_session: read.latest_of_gone_session,
    },
    input,
    now
  )
}

/** Does what the decider said, and answers with what it did. */
async function act(ports: SettlementPorts, step: SettlementStep, named: AttemptRecord | null, read: SettlementRead, input: SettleInput): Promise<Settlement> {
  switch (step.step) {
    case "already_placed":
      return { outcome: "already_placed", session: null, attempt: named!, order_id: named!.order_id!, asked: false, changed: false }
    case "settle_detached":
      return ports.settleDetached(
        step.attempt === "named" ? named! : step.attempt === "retired_session" ? read.session!.attempt! : read.latest_of_gone_session!,
        input
      )
    case "unknown_session":
      return { outcome: "unknown_session", session: null, asked: false, changed: false }
    case "await_medusa_create": {
      // Decided again on what was read, as created: what the create wrote since (the session's
      // retry, its data) changes nothing this signal acts on. Not written in time: the next signal acts.
      if (!(await ports.untilMedusaCreated(read.session!.session_id))) return fromRecord(read.session!, ports.now(), false)
      const created = { ...read, session: { ...read.session!, medusa_creating: false } }
      return act(ports, stepOf(named, created, input, ports.now()), named, created, input)
    }
  }
  const live = read.session!
  const links = await newLinksOf(ports, live)
  if (step.step === "record_in_medusa" || step.step === "ask_paylater" || step.step === "complete_cart") {
    return authorizeAndComplete(ports, live, input, links)
  }
  // Written before anything is authorized: a process killed after Medusa recorded the payment
  // leaves a row that already names its collection and cart.
  if (links) await ports.linkAttempt(live.attempt!.paylater_order_id, links)
  switch (step.step) {
    case "placed_cart":
      return settleForPlacedCart(ports, live, input)
    case "recorded_paid":
      if (step.heal_order_captures) {
        // Heals a point-of-sale payment settled before its order transaction was recorded.
        await ports.recordOrderCaptures(live.session_id, live.order_id!)
      }
      // The open attempt beside the recorded payment: asked about and, paid, listed as money no
      // order holds (a "paid" answer here would announce the order's payment again on every ask).
      if (step.settle_current) return ports.settleDetached(live.attempt!, input)
      return { outcome: "paid", order_id: live.order_id, session: live, asked: false, changed: false }
    case "answer_from_row": {
      const recorded = fromRecord(live, ports.now(), false)
      // A notification's `failed` is its own answer to the caller; the row moves only on PayLater's status.
      return step.reported_failed && recorded.outcome !== "failed"
        ? { outcome: "failed", reason: "declined", session: live, asked: false, changed: false }
        : recorded
    }
  }
}

/**
 * One pass: the named row (the only read outside the lock: a repeat about money its order holds
 * stops there), then under the session's lock the session and its row read once, one decision
 * (settlement-step.ts), its effects, and the answer.
 */
async function settle(ports: SettlementPorts, input: SettleInput): Promise<Settlement> {
  const named = input.paylater_order_id ? await ports.findAttempt(input.paylater_order_id) : null
  // The decider's first rule, taken before any lock: the hot path of PayLater's retries.
  if (holdsOrderMoney(named)) {
    return act(ports, { step: "already_placed" }, named, { session: null, latest_of_gone_session: null }, input)
  }
  return ports.underLock(sessionMoneyLockKey(input.session_id), SETTLE_LOCK_WAIT_SECONDS, () => answerWhileBusy(ports, named, input), async () => {
    const read = await readSettlement(ports, input)
    return act(ports, stepOf(named, read, input, ports.now()), named, read, input)
  })
}

/**
 * Another signal is settling this session right now: the records as they are, nothing acted on
 * (that settlement does it).
 */
async function answerWhileBusy(ports: SettlementPorts, named: AttemptRecord | null, input: SettleInput): Promise<Settlement> {
  const read = await readSettlement(ports, input)
  if (read.session) return fromRecord(read.session, ports.now(), false)
  const attempt = named ?? read.latest_of_gone_session
  return attempt
    ? { outcome: "detached", session: null, attempt, asked: false, changed: false }
    : { outcome: "unknown_session", session: null, asked: false, changed: false }
}

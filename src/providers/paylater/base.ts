import {
  AbstractPaymentProvider,
  MedusaError,
  PaymentActions,
  PaymentSessionStatus,
} from "@medusajs/framework/utils"
import { logger as medusaLogger } from "@medusajs/framework/logger"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  PaymentProviderContext,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import {
  type PayLaterError,
  isPayLaterError,
  logRef,
  sentOnceStaleAfterMs,
  verifyWebhook,
  type PayLaterApi,
  type PayLaterConfig,
  type PayLaterErrorCode,
  type PaymentStatus,
} from "../../lib/paylater"
import { payLaterClientFor } from "./clients"
import { assertEligible, assertStoreStartChecked, lookUpEligibility, lookUpWanted, type PaymentKind } from "./eligibility"
import { toMedusaError } from "./errors"
import { amountEquals, isPositive, isWithin, storedAmountText, toAmountText, toExactRefundAmount } from "./money"
import { warnOnce } from "./production-guard"
import { resolveProviderOptions, type PayLaterProviderOptions, type ResolvedProviderOptions } from "./options"
import {
  orderIdForAttempt,
  sessionIdFromOrderId,
  text,
  type PayLaterSessionData,
} from "./session-data"
import { sessionStatusFor, statusDataFor } from "./status"
import { accountOf, registeredIdOf } from "./registration"
import { sendGuardedRefund, type RefundLedger } from "./refund-guard"
import { cartCompletionInScope } from "./cart-completion-scope"
import { currentPaymentCollection, currentStoreStart } from "./request-context"
import { readWebhookBody } from "./webhook-input"
import { ATTEMPT_CONTEXT_KEY, ledgerPort, RETIRE_SESSION_CONTEXT_KEY, SIGNAL_CONTEXT_KEY, type AttemptRecord, type LedgerPort } from "../../modules/paylater-ledger/ledger-port"
import { LEDGER_PORT_SLOT } from "../../process-wide/slot-keys"
import type { AttemptKind, AttemptSignal, AttemptState } from "../../modules/paylater-ledger/attempt-state"
import { SIGNALS } from "../../modules/paylater-ledger/attempt-state"
import { crashPoint } from "../../faults/crash-point"
import { STATUS_CALL_INTERVAL_SECONDS, waitForStatusSlot } from "../../limits/status-interval"

/** What a payment method needs to start collecting one attempt. */
export interface StartPaymentInput {
  /** The id PayLater will know this attempt by (session id, maybe suffixed). */
  orderId: string
  sessionId: string
  /** Two-decimal QAR text. */
  amount: string
  /** What the storefront sent when creating the session (e.g. a mobile number for Request to Pay). */
  storefrontData: Record<string, unknown>
  context?: PaymentProviderContext
  /** Taken just before the call, so an expiry derived from it is never later than PayLater's. */
  startedAt: Date
}

/** Method-specific, public session data for the attempt (link URL, expiry...). */
export type StartedPayment = Partial<PayLaterSessionData>

const PATH_PREFIX = "/paylater/return"


/** The only storefront inputs: read on each attempt, never kept (the full mobile number is never stored). */
const STOREFRONT_INPUTS = ["mobile_number", "email"] as const

const MODULE_MISSING =
  `PayLater records every payment before it is sent, and the plugin's paylater_ledger module is not loaded: no copy of medusa-payment-paylater in this process has handed over its ledger (checked globalThis[Symbol.for("${LEDGER_PORT_SLOT}")], which the module fills when Medusa loads it). Add medusa-payment-paylater to \`plugins\` in medusa-config and run \`npx medusa db:migrate\`. Nothing was sent to PayLater.`

/**
 * Everything both PayLater methods share. A subclass only says how an attempt is started
 * (`startRemotePayment`): a hosted link, or a push to the shopper's app.
 *
 * Exactly-once rests on three rules kept here: the state always comes from PayLater's status
 * operation (never from a redirect or a webhook body), a payment is reported `captured` only for
 * PayLater status 2, and no create or refund is ever sent twice under the same id.
 */
export abstract class PayLaterBaseProvider extends AbstractPaymentProvider<PayLaterProviderOptions> {
  /** Runs when Medusa loads the provider (boot); the provider itself is built at first use. */
  static validateOptions(options: Record<string, unknown>): void {
    warnOnce(medusaLogger, resolveProviderOptions(options).warnings)
  }

  protected readonly settings_: ResolvedProviderOptions
  protected readonly api_: PayLaterApi
  protected readonly logger_: Logger | Console
  /** Kept to find this provider's own registered id (`providerId`); read only after construction. */
  private readonly cradle_: Record<string, unknown>
  /** undefined until looked up; null when Medusa's registry does not name this instance. */
  private providerId_: string | null | undefined

  /** Failures after which the create may or may not have happened: retried once under a new id. */
  protected readonly retryableStartCodes: ReadonlySet<PayLaterErrorCode> = new Set<PayLaterErrorCode>([
    "TIMEOUT",
    "NETWORK",
    "SERVER_ERROR",
    "ORDER_ID_NOT_UNIQUE",
    "DUPLICATE_REFERENCE",
  ])

  protected constructor(cradle: Record<string, unknown>, options: PayLaterProviderOptions) {
    super(cradle, options)
    this.cradle_ = cradle
    this.settings_ = resolveProviderOptions(options)
    this.logger_ = PayLaterBaseProvider.loggerFrom(cradle)
    this.api_ = this.createApi(this.settings_.config)
  }

  private static loggerFrom(cradle: Record<string, unknown>): Logger | Console {
    try {
      return (cradle.logger as Logger | undefined) ?? console
    } catch {
      // Awilix cradles throw for unregistered names instead of returning undefined.
      return console
    }
  }

  /** Overridable so tests (and future transports) can supply their own PayLaterApi. */
  protected createApi(config: PayLaterConfig): PayLaterApi {
    return payLaterClientFor(config, this.logger_)
  }

  /**
   * The id Medusa registered this provider under (`pp_paylater_<entry id>`: which registration, and
   * so which outlet and credentials), found once in the payment module's registry (registration.ts).
   */
  protected providerId(): string | null {
    if (this.providerId_ === undefined) {
      this.providerId_ = registeredIdOf(this.cradle_, this, (this.constructor as { identifier?: string }).identifier ?? "")
      if (!this.providerId_) {
        this.logger_.warn("PayLater: this provider is not in Medusa's payment provider registry; attempts record only the account they were sent to")
      }
    }
    return this.providerId_
  }

  /** What the attempt ledger calls this method's PayLater orders. */
  protected abstract readonly attemptKind: AttemptKind

  /** How long an attempt of this method stays payable at PayLater. */
  protected abstract attemptExpiryMinutes(): number

  /** The method-specific part: ask PayLater to start collecting `input.amount` under `input.orderId`. */
  protected abstract startRemotePayment(input: StartPaymentInput): Promise<StartedPayment>

  /**
   * A start failed with one of `retryableStartCodes`, so it may or may not have reached PayLater.
   * Return the attempt's data when it did land (no new attempt is made), or null to try once more
   * under the next id. The default (payment link) retries: an unused duplicate link costs nothing.
   * Request to Pay overrides it, because a second push would reach the shopper's phone.
   */
  protected async settleUncertainStart(_input: StartPaymentInput, _error: PayLaterError): Promise<StartedPayment | null> {
    return null
  }

  /**
   * The shopper look-up before a start, when the merchant's `eligibilityCheck` asks for it: throws the
   * shopper's message for no account or too little spending room; anything else goes on (eligibility.ts).
   */
  protected async checkShopperBeforeStart(input: StartPaymentInput, kind: PaymentKind): Promise<void> {
    const storeStart = currentStoreStart()
    if (storeStart) {
      // The store route looked the shopper up with the cart's own email (request-context.ts).
      assertStoreStartChecked(storeStart, input.storefrontData, kind, this.logger_, input.orderId)
      return
    }
    const { mode, timeoutMs } = this.settings_.checkout.eligibility
    if (!lookUpWanted(mode, kind)) {
      return
    }
    const outcome = await lookUpEligibility(
      this.api_,
      { storefrontData: input.storefrontData, customerEmail: input.context?.customer?.email, amount: input.amount },
      { timeoutMs, logger: this.logger_ }
    )
    assertEligible(outcome, this.logger_, input.orderId)
  }

  /** Medusa's session status for what PayLater said and the ledger's verdict on the attempt. */
  protected sessionStatusOf(status: PaymentStatus, _state: AttemptState | null): PaymentSessionStatus {
    return sessionStatusFor(status)
  }

  /** Where PayLater sends the shopper back; the session id travels in the path, never a URL. */
  protected returnUrl(sessionId: string, outcome: "success" | "fail"): string {
    return `${this.settings_.backendUrl}${PATH_PREFIX}/${encodeURIComponent(sessionId)}?outcome=${outcome}`
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = this.sessionIdOf(input.data, input.context)
    const amount = this.checkedAmount(input.amount, input.currency_code)
    let started: StartedPayment
    try {
      started = await this.startAttempt(sessionId, 1, amount, input, null)
    } catch (error) {
      // Medusa deletes a session whose initiatePayment threw, without calling deletePayment: its
      // attempts (a Request to Pay the shopper may still approve) stay in the ledger, asked about.
      await this.ledger().markSessionGone(sessionId)
      throw error
    }
    return {
      id: started.paylater_order_id as string,
      status: PaymentSessionStatus.PENDING,
      data: this.freshAttemptData(sessionId, amount, started, input.data),
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    if ((input.context as Record<string, unknown> | undefined)?.[RETIRE_SESSION_CONTEXT_KEY] === true) {
      // The money plan retires the session (its money went back): nothing changes at PayLater.
      return { data }
    }
    const amount = this.checkedAmount(input.amount, input.currency_code)
    const sessionId = this.sessionIdOf(data, input.context)
    // Which attempt is current is the ledger's to say, not the session data's.
    const current = await this.ledger().currentAttemptOf(sessionId)
    if (current && current.state !== "never_started" && amountEquals(storedAmountText(current), amount)) {
      return { data }
    }
    if (current && current.state !== "never_started") {
      // A link is single-use and fixed to its amount; a paid one must never be replaced. Decided on
      // PayLater's own answer, not the row's last one, within the session's status-call slot.
      if (current.state === "paid" || !(await this.takeStatusSlot(current.paylater_order_id, { wait: true }))) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          current.state === "paid"
            ? "This PayLater payment is already paid; its amount can no longer change."
            : "PayLater is being asked about this payment right now; please try again in a few seconds."
        )
      }
      const { status } = await this.fetchStatus(current.paylater_order_id, "checkout")
      if (status.code === 2) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "This PayLater payment is already paid; its amount can no longer change."
        )
      }
    }
    const attempt = current ? attemptNumberOf(current.paylater_order_id) + 1 : 1
    // The replaced link or request stays payable until it expires: its row stays open, superseded.
    const started = await this.startAttempt(sessionId, attempt, amount, input, current?.paylater_order_id ?? null)
    return {
      status: PaymentSessionStatus.PENDING,
      data: this.freshAttemptData(sessionId, amount, started, data),
    }
  }

  /**
   * Medusa's authorization is answered from PayLater's word already on the attempt's row when there
   * is one to answer with: a paid row (PayLater's success is final: only a refund sends the money
   * back, and settlement checks for one before it completes a cart), or the attempt settlement names, which it has just
   * asked PayLater about and recorded under its lock. So settlement asks once, by itself, and then
   * has Medusa record the answer or place the order; otherwise (the storefront's own completion of
   * an unpaid row) PayLater is asked here.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    const attempt = await this.attemptToAuthorize(data, input.context)
    const { orderId, row } = attempt
    const recorded = row && recordedStatusOf(row, row.paylater_order_id === namedAttemptOf(input.context))
    if (!recorded) return this.refreshFromPayLater(data, input.context, attempt)
    return this.answerFromRow(data, orderId, row, recorded)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return this.refreshFromPayLater(input.data, input.context)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.refreshFromPayLater(input.data, input.context)
    return { data }
  }

  /**
   * PayLater takes the whole amount when the shopper pays: a capture only records it in Medusa. It is
   * refused for money PayLater gave back (any of it) that no order holds, so a stale authorized
   * payment never becomes money an order counts (the order page's Capture; the money plan cancels
   * such payments, this holds if that did not happen yet).
   */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const key = text((input.data ?? {}) as PayLaterSessionData, "paylater_order_id")
    const row = key ? await this.ledger().findAttempt(key) : null
    if (row?.state === "paid" && !row.order_id && isPositive(await this.ledger().refundedAmount(row.paylater_order_id))) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "PayLater has refunded this payment to the shopper, so it cannot be captured. Take the order's payment again."
      )
    }
    return { data: input.data }
  }

  /** PayLater has no cancel operation: an unpaid link simply expires, a paid one needs a refund. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    // PayLater has no void: money it holds leaves it only by a refund. Medusa's record of it canceled
    // (its cart completion's rollback cancels the payment it authorized when a later step fails)
    // would leave money PayLater holds that no Medusa record counts, and an order placed with it
    // holding nothing. So the record stays live, as the money plan says for money not given back:
    // the cart's next completion places the order with it, or it is listed as paid without an order.
    // The money plan cancels only money that went back (or may have).
    // Medusa's payment module names the payment it cancels (`idempotency_key`); its clean-up after an
    // authorization that failed before any payment was written names none, and then rethrows the
    // authorization's own error, which a refusal here would replace: nothing is recorded to keep.
    const payment = input.context?.idempotency_key
    if (!payment) return { data }
    // Whether PayLater took the money is the ledger's to say; the data only names the attempt.
    const key = text(data, "paylater_order_id")
    const row = key ? await this.ledger().findAttempt(key) : null
    if (row?.state === "paid" && !(await this.ledger().moneyGivenBack(row.paylater_order_id))) {
      this.logger_.warn(`PayLater: Medusa asked to cancel payment ${payment} of ${logRef(row.paylater_order_id)}, which PayLater holds as paid: kept (PayLater takes money back only by a refund).`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "PayLater holds this payment as paid and has no cancel: it goes back to the shopper only by a refund.")
    }
    return { data }
  }

  /**
   * Medusa deletes the session row for good (cart changed, another method picked), but PayLater has
   * no cancel: the link or request stays payable. Its ledger rows stay, marked session-gone, and
   * reconciliation keeps asking about them until they expire.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const sessionId = text(input.data, "session_id")
    if (sessionId) {
      await this.ledger().markSessionGone(sessionId)
    }
    return { data: input.data }
  }

  /** Refunds go through the refund guard (refund-guard.ts): recorded before sending, never twice. */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    const amount = toExactRefundAmount(input.amount)
    if (!isPositive(amount)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "The refund amount must be greater than 0.")
    }
    // Medusa hands a provider only the payment's data (our own authorize output): its PayLater order
    // id is the key to the ledger row, and the row decides the rest (which PayLater order, which
    // session, how much was paid). A payment the ledger does not know is refused, never guessed.
    const key = text(data, "paylater_order_id")
    const row = key ? await this.ledger().findAttempt(key) : null
    if (!row) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment has no PayLater order to refund.")
    }
    if (row.state !== "paid") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "PayLater has not confirmed this payment as paid: there is nothing to refund.")
    }
    const elsewhere = this.startedElsewhere(row)
    if (elsewhere) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This PayLater payment was taken ${elsewhere}: it is refunded only there.`)
    }
    // Medusa's rollback of a failed cart completion asks for a refund of the captured payment
    // (cart-completion-scope.ts). With "refund" that is the merchant's choice anyway (the list records
    // it refunded); with "hold" the money waits for a person, so the rollback refunds nothing.
    if (!row.order_id && this.settings_.paidWithoutOrder === "hold" && cartCompletionInScope()) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        'This store holds PayLater payments without an order for a person (paidWithoutOrder: "hold"): a failed cart completion does not refund it. It is listed on Settings → PayLater.'
      )
    }
    const refunded = await sendGuardedRefund({
      api: this.api_,
      logger: this.logger_,
      ledger: this.refundLedger(),
      data,
      orderId: row.paylater_order_id,
      sessionId: row.session_id,
      amount,
      medusaRefundId: input.context?.idempotency_key,
      payment: { id: row.payment_id ?? null, payment_collection_id: row.payment_collection_id ?? null },
      capturedAmount: storedAmountText(row),
      staleAfterMs: sentOnceStaleAfterMs(this.settings_.config),
    })
    return { data: refunded }
  }

  /** Where an attempt another registration or account started was taken, or null when it was here. */
  private startedElsewhere(row: AttemptRecord): string | null {
    const own = this.providerId()
    if (row.provider_id && own && row.provider_id !== own) return `through ${row.provider_id}, not ${own}`
    const account = accountOf(this.settings_.config)
    if (row.paylater_account && row.paylater_account !== account) return `at another PayLater account (${row.paylater_account}) than this registration's (${account})`
    return null
  }

  /** Where refund attempts are recorded; overridable so unit tests can supply their own. */
  protected refundLedger(): RefundLedger {
    return this.ledger()
  }

  /**
   * The plugin's attempt and refund ledger, handed over by the plugin's module (ledger-port.ts): a
   * provider cannot resolve other modules. Overridable so unit tests can supply their own.
   */
  protected ledger(): LedgerPort {
    const ledger = ledgerPort()
    if (!ledger) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, MODULE_MISSING)
    }
    return ledger
  }

  /**
   * Medusa's own /hooks/payment route hands every body it receives to this method, unauthenticated:
   * a notification that fails verification is refused here (thrown), so nothing forged is ever
   * processed. Medusa's pipeline then does nothing with a genuine one: `success` is answered
   * NOT_SUPPORTED and `failed`/`pending` are skipped by Medusa's subscriber, because the plugin's
   * webhook subscriber hears the same event and settles it through the one settlement path every
   * PayLater signal uses (src/settlement). processPaymentWorkflow would be a second road.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const verification = verifyWebhook(readWebhookBody(payload), this.settings_.config.webhookSecret, {
      expectedMerchantId: this.settings_.config.merchantId,
    })
    if (!verification.ok) {
      const forged = verification.reason === "hash_mismatch" || verification.reason === "signature_mismatch"
      throw new MedusaError(
        forged ? MedusaError.Types.UNAUTHORIZED : MedusaError.Types.NOT_ALLOWED,
        `PayLater webhook refused: ${verification.message}`
      )
    }
    const action = { success: PaymentActions.NOT_SUPPORTED, failed: PaymentActions.FAILED, pending: PaymentActions.PENDING }
    return { action: action[verification.webhook.status] }
  }

  /**
   * PayLater's status for the session's attempt, asked only with the session's status-call slot
   * (the one settlement takes, so a storefront's completion, a poll and a return together ask once
   * per interval): when another caller has this interval's call, the answer is the row's, as the
   * last answer recorded it (a paid row says paid: PayLater's success is final).
   */
  protected async refreshFromPayLater(
    rawData: Record<string, unknown> | undefined,
    context: PaymentProviderContext | undefined,
    known?: { orderId: string; row: AttemptRecord | null }
  ): Promise<{ status: PaymentSessionStatus; data: PayLaterSessionData }> {
    const data = (rawData ?? {}) as PayLaterSessionData
    const { orderId, row: read } = known ?? (await this.attemptToAuthorize(data, context))
    if (!(await this.takeStatusSlot(orderId))) {
      const row = read ?? (await this.ledger().findAttempt(orderId))
      return this.answerFromRow(data, orderId, row, rowStatusOf(row))
    }
    const { status, row } = await this.fetchStatus(orderId, signalOf(context))
    // The attempt PayLater was asked about, not the one the data named: they differ once a retry
    // ("-2") replaced it, and refunds and cancels find their ledger row by this key.
    const next = { ...data, ...statusDataFor(status), paylater_order_id: orderId }
    return { status: this.sessionStatusOf(status, row?.state ?? null), data: next }
  }

  /** Medusa's answer from what the attempt's row recorded, with nothing asked. */
  private answerFromRow(
    data: PayLaterSessionData,
    orderId: string,
    row: AttemptRecord | null,
    recorded: PaymentStatus
  ): { status: PaymentSessionStatus; data: PayLaterSessionData } {
    return { status: this.sessionStatusOf(recorded, row?.state ?? null), data: { ...data, ...statusDataFor(recorded), paylater_order_id: orderId } }
  }

  /**
   * This interval's status call about the session of `orderId` (the slot settlement takes for it,
   * ledger-port.ts StatusSlotPort). `wait`: for a decision that must not rest on an older answer,
   * wait up to one interval for the next slot. False: another caller asks this interval.
   */
  protected async takeStatusSlot(orderId: string, { wait = false }: { wait?: boolean } = {}): Promise<boolean> {
    const sessionId = sessionIdFromOrderId(orderId)
    return waitForStatusSlot({ take: () => this.ledger().takeStatusSlot(sessionId, STATUS_CALL_INTERVAL_SECONDS), wait })
  }

  /** PayLater's status operation; its answer is recorded in the attempt's ledger row before anything else. */
  protected async fetchStatus(orderId: string, signal: AttemptSignal): Promise<{ status: PaymentStatus; row: AttemptRecord | null }> {
    let answered = false
    try {
      const status = await this.api_.getPaymentStatus(orderId)
      answered = true
      const row = await this.ledger().recordStatus(orderId, {
        code: status.code,
        message: status.message,
        paylater_ref: status.payLaterOrderId ?? null,
        signal,
      })
      return { status, row }
    } catch (error) {
      if (answered) throw error
      this.logger_.warn(
        `PayLater: status of ${logRef(orderId)} unavailable (${isPayLaterError(error) ? error.code : "unknown"})`
      )
      if (isPayLaterError(error)) {
        // Asked and not answered: the row is asked again later, never dropped.
        await this.ledger().recordUnanswered(orderId)
      }
      throw toMedusaError(error, "status")
    }
  }

  /** One attempt, and at most one more under the next id when the first may or may not have landed. */
  protected async startAttempt(
    sessionId: string,
    attempt: number,
    amount: string,
    input: { data?: Record<string, unknown>; context?: PaymentProviderContext },
    supersedes: string | null
  ): Promise<StartedPayment> {
    const ledger = this.ledger()
    let replaced = supersedes
    const start = async (n: number): Promise<StartedPayment> => {
      const orderId = orderIdForAttempt(sessionId, n)
      const startInput: StartPaymentInput = {
        orderId,
        sessionId,
        amount,
        storefrontData: input.data ?? {},
        context: input.context,
        startedAt: new Date(),
      }
      // Write-ahead: the row exists before PayLater can take money for this order id.
      await ledger.writeAhead({
        paylater_order_id: orderId,
        kind: this.attemptKind,
        session_id: sessionId,
        payment_collection_id: currentPaymentCollection(),
        amount,
        currency_code: "QAR",
        expires_at: new Date(startInput.startedAt.getTime() + this.attemptExpiryMinutes() * 60_000),
        supersedes: replaced,
        // Which registration and account the create goes to: the row is asked and refunded there only.
        provider_id: this.providerId(),
        paylater_account: accountOf(this.settings_.config),
        detail: { merchant_id: this.settings_.config.merchantId },
      })
      replaced = orderId
      crashPoint("start:after-write-ahead")
      let started: StartedPayment
      try {
        started = await this.startRemotePayment(startInput)
        crashPoint("start:after-paylater-answered")
      } catch (error) {
        const uncertain = isPayLaterError(error) && this.retryableStartCodes.has(error.code)
        let landed: StartedPayment | null = null
        if (uncertain) {
          try {
            landed = await this.settleUncertainStart(startInput, error as PayLaterError)
          } catch (settleError) {
            // Neither confirmed nor refuted (a lost Request to Pay): PayLater may have it.
            await ledger.recordStartFailed(orderId, { maybe_landed: true, error_code: codeOf(settleError) })
            throw settleError
          }
        }
        if (!landed) {
          // A timeout may still have created it at PayLater: the row stays open and is asked about.
          await ledger.recordStartFailed(orderId, { maybe_landed: uncertain, error_code: codeOf(error) })
          throw error
        }
        started = landed
      }
      await ledger.recordStarted(orderId, {
        expires_at: typeof started.expires_at === "string" ? new Date(started.expires_at) : null,
        detail: started.mobile_number_masked ? { mobile_number_masked: started.mobile_number_masked } : null,
      })
      return { ...started, paylater_order_id: orderId, paylater_attempt: n }
    }
    try {
      return await start(attempt)
    } catch (error) {
      if (!isPayLaterError(error) || !this.retryableStartCodes.has(error.code)) {
        throw toMedusaError(error, "create")
      }
      this.logger_.warn(
        `PayLater: starting ${logRef(orderIdForAttempt(sessionId, attempt))} failed (${error.code}); retrying once as ${logRef(orderIdForAttempt(sessionId, attempt + 1))}`
      )
    }
    try {
      return await start(attempt + 1)
    } catch (error) {
      throw toMedusaError(error, "create")
    }
  }

  /**
   * The session's public view for a new attempt, written whole: every key the storefront sent or an
   * earlier attempt left is cleared (Medusa merges `{...storefront data, ...ours}` and drops
   * undefined values when it writes the JSON), then ours are set. The storefront's inputs (mobile
   * number, email) were read by the attempt and are not kept.
   */
  private freshAttemptData(
    sessionId: string,
    amount: string,
    started: StartedPayment,
    previous: Record<string, unknown> | undefined
  ): PayLaterSessionData {
    const cleared = Object.fromEntries(Object.keys(previous ?? {}).map((key) => [key, undefined]))
    return {
      ...cleared,
      ...Object.fromEntries(STOREFRONT_INPUTS.map((key) => [key, undefined])),
      ...started,
      session_id: sessionId,
      amount,
      currency: "QAR",
    }
  }

  /** The amounts this method may collect; the payment link's (the outlet's range) by default. */
  protected amountRange(): { minAmount: string; maxAmount: string } {
    return this.settings_.config
  }

  /** QAR only, rounded to dirhams, inside the method's range: refused with words a shopper can act on. */
  protected checkedAmount(amount: InitiatePaymentInput["amount"], currencyCode: string): string {
    if ((currencyCode ?? "").toUpperCase() !== "QAR") {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `PayLater accepts payments in Qatari riyal (QAR) only; this cart is in ${(currencyCode ?? "an unknown currency").toUpperCase()}.`
      )
    }
    const rounded = toAmountText(amount)
    const { minAmount, maxAmount } = this.amountRange()
    if (!isWithin(rounded, minAmount, maxAmount)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `PayLater can pay for orders between ${minAmount} and ${maxAmount} QAR; this order is ${rounded} QAR. Please choose another payment method.`
      )
    }
    return rounded
  }

  protected sessionIdOf(data: Record<string, unknown> | undefined, context?: PaymentProviderContext): string {
    const id = text(data, "session_id") ?? context?.idempotency_key
    if (!id) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PayLater needs the payment session id to start a payment.")
    }
    return id
  }

  /**
   * The PayLater order to ask about, with its row when it was read. It must belong to this session:
   * data a storefront sent can never point the status check at somebody else's paid order.
   * Settlement names the attempt it asked about under its lock (never a started-never one); other
   * callers are answered from the session's current attempt in the ledger.
   */
  protected async attemptToAuthorize(data: PayLaterSessionData, context?: PaymentProviderContext): Promise<{ orderId: string; row: AttemptRecord | null }> {
    const sessionId = context?.idempotency_key ?? text(data, "session_id")
    const named = namedAttemptOf(context)
    const row = named ? await this.ledger().findAttempt(named) : sessionId ? await this.ledger().currentAttemptOf(sessionId) : null
    const orderId = named ?? (row && row.state !== "never_started" ? row.paylater_order_id : undefined)
    if (!orderId || !sessionId || sessionIdFromOrderId(orderId) !== sessionId) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment session was not started with PayLater.")
    }
    return { orderId, row: row?.paylater_order_id === orderId ? row : null }
  }
}

function codeOf(error: unknown): string {
  if (isPayLaterError(error)) return error.code
  // The plugin's own refusals carry a code of their own (paylater_not_eligible, paylater_rtp_try_later,
  // ...): kept rather than the generic type, so the funnel can tell a look-up refusal from the rest.
  if (error instanceof MedusaError) return (error as MedusaError & { code?: string }).code || error.type
  return "UNKNOWN"
}

/** "payses_1-3" → 3; the bare session id is attempt 1. */
function attemptNumberOf(orderId: string): number {
  const match = /-(\d+)$/.exec(orderId)
  return match ? Number(match[1]) : 1
}

/** Which signal asked, as settlement passes it through Medusa's provider context. */
function signalOf(context: PaymentProviderContext | undefined): AttemptSignal {
  const value = (context as Record<string, unknown> | undefined)?.[SIGNAL_CONTEXT_KEY]
  return (SIGNALS as readonly string[]).includes(value as string) ? (value as AttemptSignal) : "checkout"
}

/** The attempt settlement names in Medusa's provider context: it asked PayLater about it just now. */
function namedAttemptOf(context: PaymentProviderContext | undefined): string | undefined {
  const named = (context as Record<string, unknown> | undefined)?.[ATTEMPT_CONTEXT_KEY]
  return typeof named === "string" ? named : undefined
}

/**
 * The row's word when this interval's status call is somebody else's: paid when PayLater said so
 * (final), else its last recorded answer, and "not answered yet" (pending to Medusa) without one.
 */
function rowStatusOf(row: AttemptRecord | null): PaymentStatus {
  return (row && recordedStatusOf(row, true)) ?? { code: 0, state: "not_initiated", message: "", payLaterOrderId: row?.paylater_ref ?? null, merchantReference: null }
}

/**
 * PayLater's answer as the row recorded it, when authorization may be answered with it: a paid row,
 * or any recorded answer of the attempt settlement names (`justAsked`). Null: ask PayLater.
 */
function recordedStatusOf(row: AttemptRecord, justAsked: boolean): PaymentStatus | null {
  const code = row.state === "paid" ? 2 : justAsked ? row.last_status_code : null
  if (code !== 0 && code !== 1 && code !== 2 && code !== 3) return null
  const state = (["not_initiated", "pending", "success", "failed"] as const)[code]
  return { code, state, message: "", payLaterOrderId: row.paylater_ref ?? null, merchantReference: null }
}

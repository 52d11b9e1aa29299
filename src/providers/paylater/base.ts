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
  refundStaleAfterMs,
  verifyWebhook,
  type PayLaterApi,
  type PayLaterConfig,
  type PayLaterErrorCode,
  type PaymentStatus,
} from "../../lib/paylater"
import { payLaterClientFor } from "./clients"
import { assertEligible, lookUpEligibility, lookUpWanted, type PaymentKind } from "./eligibility"
import { toMedusaError } from "./errors"
import { amountEquals, isPositive, isWithin, toAmountText, toExactRefundAmount } from "./money"
import { warnOnce } from "./production-guard"
import { resolveProviderOptions, type PayLaterProviderOptions, type ResolvedProviderOptions } from "./options"
import {
  attemptOf,
  orderIdForAttempt,
  sessionIdFromOrderId,
  text,
  type PayLaterSessionData,
} from "./session-data"
import { sessionStatusFor, statusDataFor } from "./status"
import { withStorefront } from "./templates"
import { refundLedger, sendGuardedRefund, type RefundLedger } from "./refund-guard"
import { recordDeletedSession } from "./tombstones"
import { readWebhookBody } from "./webhook-input"

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

  /** Medusa's session status for what PayLater said; `data` already holds the new status fields. */
  protected sessionStatusOf(status: PaymentStatus, _data: PayLaterSessionData): PaymentSessionStatus {
    return sessionStatusFor(status)
  }

  /** Where PayLater sends the shopper back; the session id travels in the path, never a URL. */
  protected returnUrl(sessionId: string, outcome: "success" | "fail"): string {
    return `${this.settings_.backendUrl}${PATH_PREFIX}/${encodeURIComponent(sessionId)}?outcome=${outcome}`
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = this.sessionIdOf(input.data, input.context)
    const amount = this.checkedAmount(input.amount, input.currency_code)
    const started = await this.startAttempt(sessionId, 1, amount, input)
    return {
      id: started.paylater_order_id as string,
      status: PaymentSessionStatus.PENDING,
      data: this.freshAttemptData(sessionId, amount, started),
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    const amount = this.checkedAmount(input.amount, input.currency_code)
    if (data.amount && data.paylater_order_id && amountEquals(data.amount, amount)) {
      return { data }
    }
    const sessionId = this.sessionIdOf(data, input.context)
    if (data.paylater_order_id) {
      // A link is single-use and fixed to its amount; a paid one must never be replaced.
      const current = await this.fetchStatus(data.paylater_order_id)
      if (current.code === 2) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "This PayLater payment is already paid; its amount can no longer change."
        )
      }
    }
    const started = await this.startAttempt(sessionId, attemptOf(data) + 1, amount, input)
    // The replaced link or request stays payable until it expires: reconciliation keeps asking about it.
    await recordDeletedSession(this.container, data, this.logger_, new Date(), started.paylater_order_id as string)
    return {
      status: PaymentSessionStatus.PENDING,
      data: { ...this.withoutAttemptState(data), ...this.freshAttemptData(sessionId, amount, started) },
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.refreshFromPayLater(input.data, input.context)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return this.refreshFromPayLater(input.data, input.context)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.refreshFromPayLater(input.data, input.context)
    return { data }
  }

  /** PayLater settles on its own; Medusa already recorded the capture when the payment was created. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return { data: input.data }
  }

  /** PayLater has no cancel operation: an unpaid link simply expires, a paid one needs a refund. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    if (data.paylater_status === "success") {
      this.logger_.warn(
        `PayLater: payment ${logRef(data.paylater_order_id)} was canceled in Medusa but is paid at PayLater; refund it to return the money.`
      )
    }
    return { data }
  }

  /**
   * Medusa deletes the session row for good (cart changed, another method picked), but PayLater has
   * no cancel: the link or request stays payable. A tombstone lets reconciliation find it if paid.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    await recordDeletedSession(this.container, (input.data ?? {}) as PayLaterSessionData, this.logger_)
    return { data: input.data }
  }

  /** Refunds go through the refund guard (refund-guard.ts): recorded before sending, never twice. */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = (input.data ?? {}) as PayLaterSessionData
    const orderId = text(data, "paylater_order_id")
    if (!orderId) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment has no PayLater order to refund.")
    }
    const amount = toExactRefundAmount(input.amount)
    if (!isPositive(amount)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "The refund amount must be greater than 0.")
    }
    const refunded = await sendGuardedRefund({
      container: this.container,
      api: this.api_,
      logger: this.logger_,
      ledger: this.refundLedger(),
      data,
      orderId,
      sessionId: text(data, "session_id") ?? null,
      amount,
      medusaRefundId: input.context?.idempotency_key,
      staleAfterMs: refundStaleAfterMs(this.settings_.config),
    })
    return { data: refunded }
  }

  /** Where refund attempts are recorded; overridable so unit tests can supply their own. */
  protected refundLedger(): RefundLedger {
    return refundLedger()
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

  protected async refreshFromPayLater(
    rawData: Record<string, unknown> | undefined,
    context: PaymentProviderContext | undefined
  ): Promise<{ status: PaymentSessionStatus; data: PayLaterSessionData }> {
    const data = (rawData ?? {}) as PayLaterSessionData
    const orderId = this.orderIdOf(data, context)
    const status = await this.fetchStatus(orderId)
    const next = { ...data, ...statusDataFor(status, data, new Date()) }
    return { status: this.sessionStatusOf(status, next), data: next }
  }

  protected async fetchStatus(orderId: string): Promise<PaymentStatus> {
    try {
      return await this.api_.getPaymentStatus(orderId)
    } catch (error) {
      this.logger_.warn(
        `PayLater: status of ${logRef(orderId)} unavailable (${isPayLaterError(error) ? error.code : "unknown"})`
      )
      throw toMedusaError(error, "status")
    }
  }

  /** One attempt, and at most one more under the next id when the first may or may not have landed. */
  protected async startAttempt(
    sessionId: string,
    attempt: number,
    amount: string,
    input: { data?: Record<string, unknown>; context?: PaymentProviderContext }
  ): Promise<StartedPayment> {
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
      let started: StartedPayment
      try {
        started = await this.startRemotePayment(startInput)
      } catch (error) {
        const landed =
          isPayLaterError(error) && this.retryableStartCodes.has(error.code)
            ? await this.settleUncertainStart(startInput, error)
            : null
        if (!landed) {
          throw error
        }
        started = landed
      }
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

  private freshAttemptData(sessionId: string, amount: string, started: StartedPayment): PayLaterSessionData {
    const { storefrontUrl, templates } = this.settings_
    return {
      ...started,
      session_id: sessionId,
      amount,
      currency: "QAR",
      paylater_status: "not_initiated",
      paylater_redirects: {
        success: withStorefront(templates.success, storefrontUrl),
        failure: withStorefront(templates.failure, storefrontUrl),
        pending: withStorefront(templates.pending, storefrontUrl),
      },
    }
  }

  private withoutAttemptState(data: PayLaterSessionData): PayLaterSessionData {
    const {
      paylater_status_code: _code,
      paylater_status_message: _message,
      paylater_status_checked_at: _checked,
      paylater_ref: _ref,
      paylater_failure_reason: _reason,
      payment_link_url: _link,
      expires_at: _expires,
      ...rest
    } = data
    return rest
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
   * The PayLater order to ask about. It must belong to this session: data a storefront sent can
   * never point the status check at somebody else's paid order.
   */
  protected orderIdOf(data: PayLaterSessionData, context?: PaymentProviderContext): string {
    const orderId = text(data, "paylater_order_id")
    const sessionId = text(data, "session_id") ?? context?.idempotency_key
    if (!orderId || (sessionId && sessionIdFromOrderId(orderId) !== sessionId)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment session was not started with PayLater.")
    }
    return orderId
  }
}

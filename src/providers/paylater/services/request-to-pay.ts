import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { logRef, maskMobile, requestToPayRange, type PayLaterError, type PayLaterErrorCode, type PaymentStatus } from "../../../lib/paylater"
import { PayLaterBaseProvider, type StartPaymentInput, type StartedPayment } from "../base"
import type { PayLaterProviderOptions } from "../options"
import { requestToPayError, unconfirmedRequestError } from "../request-to-pay/errors"
import { mobileFromSessionData } from "../request-to-pay/mobile"
import type { AttemptState } from "../../../modules/paylater-ledger/attempt-state"

/**
 * Request to Pay: the request is pushed to the shopper's PayLater app (addressed by mobile number),
 * approved there, and the store learns of it by webhook. Everything else (status, authorize, refund,
 * webhooks) is the shared base.
 */
export class PayLaterRequestToPayProviderService extends PayLaterBaseProvider {
  static identifier = "paylater-rtp"
  protected readonly attemptKind = "request_to_pay" as const

  /**
   * Failures after which the push may have reached the phone. None is retried blindly: each is
   * settled with the status operation first (settleUncertainStart). A 409 or 404 is a clear refusal
   * and is never retried here.
   */
  protected readonly retryableStartCodes: ReadonlySet<PayLaterErrorCode> = new Set<PayLaterErrorCode>([
    "TIMEOUT",
    "NETWORK",
    "SERVER_ERROR",
    "UNEXPECTED_RESPONSE",
  ])

  constructor(cradle: Record<string, unknown>, options: PayLaterProviderOptions) {
    super(cradle, options)
  }

  protected async startRemotePayment(input: StartPaymentInput): Promise<StartedPayment> {
    const mobile = mobileFromSessionData(input.storefrontData)
    await this.checkShopperBeforeStart(input, "request-to-pay")
    try {
      const result = await this.api_.requestToPay({
        mobileNumber: mobile,
        amount: input.amount,
        merchantOrderReference: input.orderId,
        expiryMinutes: this.attemptExpiryMinutes(),
      })
      return this.requestData(mobile, result.expiresAt, result.expiryDateRaw)
    } catch (error) {
      throw requestToPayError(error)
    }
  }

  /**
   * The push may or may not have landed. PayLater's status for the reference decides: 0 means it
   * never arrived (safe to send again under the next suffix); anything else means the shopper has
   * it, so we keep it, with an expiry counted from before our call (never later than PayLater's).
   */
  protected async settleUncertainStart(input: StartPaymentInput, error: PayLaterError): Promise<StartedPayment | null> {
    let status: PaymentStatus
    try {
      status = await this.api_.getPaymentStatus(input.orderId)
    } catch {
      this.logger_.warn(
        `PayLater: Request to Pay ${logRef(input.orderId)} failed (${error.code}) and its status could not be checked; not sending it again`
      )
      throw unconfirmedRequestError()
    }
    if (status.code === 0) {
      this.logger_.info(`PayLater: Request to Pay ${logRef(input.orderId)} never reached PayLater (${error.code})`)
      return null
    }
    this.logger_.warn(
      `PayLater: Request to Pay ${logRef(input.orderId)} reached PayLater (status ${status.code}) although its answer was lost (${error.code}); keeping it`
    )
    const expiresAt = new Date(input.startedAt.getTime() + this.attemptExpiryMinutes() * 60_000)
    return this.requestData(mobileFromSessionData(input.storefrontData), expiresAt, null)
  }

  /** An expired request ends the session as canceled; a declined one as error (the base's mapping). */
  protected sessionStatusOf(status: PaymentStatus, state: AttemptState | null): PaymentSessionStatus {
    if (status.code === 3 && state === "expired") {
      return PaymentSessionStatus.CANCELED
    }
    return super.sessionStatusOf(status, state)
  }

  /** Request to Pay has its own bounds (requestToPayMinAmount/MaxAmount), not the link's. */
  protected amountRange(): { minAmount: string; maxAmount: string } {
    return requestToPayRange(this.settings_.config)
  }

  protected attemptExpiryMinutes(): number {
    return this.settings_.config.requestToPayExpiryMinutes
  }

  /**
   * Public session data for the request. `mobile_number: undefined` is deliberate: Medusa stores the
   * storefront's data merged with ours, and an undefined value is dropped when the JSON is written,
   * so the full number the storefront sent does not stay on the session. Only the masked form does.
   */
  private requestData(mobile: string, expiresAt: Date, expiryDateRaw: string | null): StartedPayment {
    return {
      mobile_number: undefined,
      email: undefined,
      mobile_number_masked: maskMobile(mobile),
      expires_at: expiresAt.toISOString(),
      paylater_expiry_date_raw: expiryDateRaw,
      paylater_expiry_minutes: this.attemptExpiryMinutes(),
    }
  }
}

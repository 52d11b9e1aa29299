import { PayLaterBaseProvider, type StartPaymentInput, type StartedPayment } from "../base"
import type { PayLaterProviderOptions } from "../options"

/** Hosted payment link: the shopper is redirected to PayLater's page and comes back to our return route. */
export class PayLaterLinkProviderService extends PayLaterBaseProvider {
  static identifier = "paylater"
  protected readonly attemptKind = "link" as const

  constructor(cradle: Record<string, unknown>, options: PayLaterProviderOptions) {
    super(cradle, options)
  }

  protected attemptExpiryMinutes(): number {
    return this.settings_.config.linkExpiryMinutes
  }

  protected async startRemotePayment(input: StartPaymentInput): Promise<StartedPayment> {
    await this.checkShopperBeforeStart(input, "link")
    const minutes = this.settings_.config.linkExpiryMinutes
    // Taken before the call so that our idea of the expiry is never later than PayLater's.
    const expiresAt = new Date(Date.now() + minutes * 60_000).toISOString()
    const { paymentLinkUrl } = await this.api_.createPaymentLink({
      orderId: input.orderId,
      amount: input.amount,
      currency: "QAR",
      successRedirectUrl: this.returnUrl(input.sessionId, "success"),
      failRedirectUrl: this.returnUrl(input.sessionId, "fail"),
      expiryMinutes: minutes,
    })
    return {
      payment_link_url: paymentLinkUrl,
      expires_at: expiresAt,
      // Sent only for the optional shopper look-up; undefined drops them from the stored session.
      mobile_number: undefined,
      email: undefined,
    }
  }
}

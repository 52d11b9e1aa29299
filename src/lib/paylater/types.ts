/**
 * The public contract of the PayLater client. Nothing here imports Medusa: the provider translates
 * between Medusa and these shapes. Amounts always travel as decimal strings in major units
 * ("350.00") so that no binary floating point ever touches money.
 */

export type PayLaterEnvironment = "sandbox" | "production"

/** What a merchant configures (validated by `parsePayLaterConfig` in config.ts). */
export interface PayLaterConfigInput {
  clientId: string
  clientSecret: string
  /** PayLater outlet id (integer; numeric strings are accepted). */
  outletId: number | string
  /** merchantWebhookSecret issued by PayLater's account manager. */
  webhookSecret: string
  /** Optional: when set, webhooks for another merchant id are refused. */
  merchantId?: string
  environment?: PayLaterEnvironment
  /** Explicit API base, e.g. the local sandbox `http://127.0.0.1:4010`; wins over `environment`. */
  apiBaseUrl?: string
  /** Per-request timeout in milliseconds (default 15000). */
  timeoutMs?: number
  /** The outlet's own range, inside 300–25,000 QAR (defaults 300 and 25000). Decimal text or integer. */
  minAmount?: string | number
  maxAmount?: string | number
  /**
   * Request to Pay's own range (PayLater publishes none; the link's range does not apply).
   * Defaults 1.00 and 25000.00 QAR. Decimal text or number.
   */
  requestToPayMinAmount?: string | number
  requestToPayMaxAmount?: string | number
  /** Payment link validity, 1–1440 minutes (default 60). */
  linkExpiryMinutes?: number
  /** Request to Pay validity, 1–1440 minutes (default 15). */
  requestToPayExpiryMinutes?: number
  /** Attempts for calls that are safe to repeat (token, status, shopper lookup); default 3. */
  maxAttempts?: number
}

export interface PayLaterConfig {
  clientId: string
  clientSecret: string
  outletId: number
  webhookSecret: string
  merchantId?: string
  environment: PayLaterEnvironment
  apiBaseUrl: string
  timeoutMs: number
  /** Canonical two-decimal strings. */
  minAmount: string
  maxAmount: string
  requestToPayMinAmount: string
  requestToPayMaxAmount: string
  linkExpiryMinutes: number
  requestToPayExpiryMinutes: number
  maxAttempts: number
}

export interface CreatePaymentLinkInput {
  orderId: string
  /** Decimal text in major units, at most two decimals, e.g. "350.00" or "350.5". */
  amount: string
  currency: string
  successRedirectUrl: string
  failRedirectUrl: string
  /** Defaults to the configured linkExpiryMinutes. */
  expiryMinutes?: number
}

export interface PaymentLink {
  paymentLinkUrl: string
}

export interface RequestToPayInput {
  /** Any form typed in Qatar; normalised to 974 + 8 digits before sending. */
  mobileNumber: string
  amount: string
  merchantOrderReference: string
  expiryMinutes?: number
}

export interface RequestToPayResult {
  merchantOrderReference: string
  status: "SUCCESS"
  /** Parsed as UTC (the service sends no zone). */
  expiresAt: Date
  /** `expiry_date` exactly as received. */
  expiryDateRaw: string
}

export type PaymentState = "not_initiated" | "pending" | "success" | "failed"

export interface PaymentStatus {
  code: 0 | 1 | 2 | 3
  state: PaymentState
  message: string
  payLaterOrderId: string | null
  merchantReference: string | null
}

export interface RefundInput {
  orderId: string
  /** Omit for a full refund; otherwise decimal text below the order total. */
  amount?: string
}

export interface RefundResult {
  message: string
}

export interface ShopperLookupInput {
  mobileNumber: string
  email: string
}

export interface Shopper {
  shopperId: string
  email: string
  mobileNumber: string
  currentSpendingLimit: string
  allowedSpendingLimit: string
}

/** The operations the provider relies on (PayLaterClient implements it; tests may fake it). */
export interface PayLaterApi {
  readonly config: PayLaterConfig
  createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink>
  requestToPay(input: RequestToPayInput): Promise<RequestToPayResult>
  getPaymentStatus(orderId: string): Promise<PaymentStatus>
  refund(input: RefundInput): Promise<RefundResult>
  /** null when PayLater answers "Shopper not found". */
  lookupShopper(input: ShopperLookupInput): Promise<Shopper | null>
}

/** Minimal logger so the client can log without Medusa; Medusa's logger fits it. */
export interface PayLaterLogger {
  debug?(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

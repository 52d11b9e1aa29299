import {
  PayLaterError,
  type CreatePaymentLinkInput,
  type PayLaterApi,
  type PayLaterConfig,
  type PaymentStatus,
  type RefundInput,
  type RequestToPayInput,
  type RequestToPayResult,
} from "../../../lib/paylater"
import { PayLaterLinkProviderService } from "../services/link"
import { PayLaterRequestToPayProviderService } from "../services/request-to-pay"
import type { PayLaterProviderOptions } from "../options"
import { MemoryRefundLedger } from "./memory-ledger"

export const OPTIONS: PayLaterProviderOptions = {
  clientId: "client-1",
  clientSecret: "very-secret-client-secret",
  outletId: 1000000061,
  webhookSecret: "very-secret-webhook-secret",
  merchantId: "merchant-1",
  apiBaseUrl: "http://127.0.0.1:4010",
  backendUrl: "https://api.shop.qa/",
  storefrontUrl: "https://shop.qa",
}

type Step<T> = T | PayLaterError

/** Records every call; answers from queues so a test scripts PayLater's behaviour call by call. */
export class FakePayLater implements PayLaterApi {
  config!: PayLaterConfig
  links: CreatePaymentLinkInput[] = []
  statusCalls: string[] = []
  refunds: RefundInput[] = []
  linkAnswers: Step<{ paymentLinkUrl: string }>[] = []
  statusAnswers: Step<PaymentStatus>[] = []
  refundAnswers: Step<{ message: string }>[] = []
  rtps: RequestToPayInput[] = []
  rtpAnswers: Step<RequestToPayResult>[] = []

  private next<T>(queue: Step<T>[], fallback: () => T): T {
    const answer = queue.length ? queue.shift()! : fallback()
    if (answer instanceof PayLaterError) throw answer
    return answer
  }

  async createPaymentLink(input: CreatePaymentLinkInput) {
    this.links.push(input)
    return this.next(this.linkAnswers, () => ({ paymentLinkUrl: `https://pay.example/paylink/${input.orderId}?token=t&channel=web` }))
  }
  async getPaymentStatus(orderId: string) {
    this.statusCalls.push(orderId)
    return this.next(this.statusAnswers, () => status(0))
  }
  async refund(input: RefundInput) {
    this.refunds.push(input)
    return this.next(this.refundAnswers, () => ({ message: `Refund request accepted for reference Id: ${input.orderId}` }))
  }
  async requestToPay(input: RequestToPayInput) {
    this.rtps.push(input)
    return this.next(this.rtpAnswers, () => ({
      merchantOrderReference: input.merchantOrderReference,
      status: "SUCCESS" as const,
      expiresAt: new Date("2030-01-01T10:15:41.477Z"),
      expiryDateRaw: "2030-01-01T10:15:41.477013291",
    }))
  }
  async lookupShopper(): Promise<null> {
    return null
  }
}

export function status(code: 0 | 1 | 2 | 3, message?: string): PaymentStatus {
  const state = (["not_initiated", "pending", "success", "failed"] as const)[code]
  return {
    code,
    state,
    message: message ?? (code === 0 ? "Order not initiated" : state),
    payLaterOrderId: code === 0 ? null : "PL1744792493935483",
    merchantReference: null,
  }
}

export interface Logged {
  level: string
  message: string
}

// Either concrete service: the test subclass only swaps in the fake API.
type ProviderClass = new (cradle: Record<string, unknown>, options: PayLaterProviderOptions) => PayLaterLinkProviderService

/** The Request to Pay service over the same fake. */
export function makeRtpProvider(
  options: Partial<PayLaterProviderOptions> = {},
  sessions: Record<string, { id: string; amount: number | string }> = {}
) {
  // Same public surface; the cast only silences TypeScript's nominal check on protected members.
  return makeProvider(options, sessions, PayLaterRequestToPayProviderService as unknown as ProviderClass)
}

export function makeProvider(
  options: Partial<PayLaterProviderOptions> = {},
  sessions: Record<string, { id: string; amount: number | string }> = {},
  Service: ProviderClass = PayLaterLinkProviderService
) {
  const fake = new FakePayLater()
  const ledger = new MemoryRefundLedger()
  const logged: Logged[] = []
  const logger = Object.fromEntries(
    ["info", "warn", "error", "debug"].map((level) => [level, (message: string) => logged.push({ level, message })])
  )
  const paymentSessionService = {
    list: async (filters: { id: string }) => (sessions[filters.id] ? [sessions[filters.id]] : []),
  }
  class TestProvider extends Service {
    protected createApi(config: PayLaterConfig) {
      fake.config = config
      return fake
    }
    protected ledger() {
      return ledger
    }
  }
  const provider = new TestProvider({ logger, paymentSessionService }, { ...OPTIONS, ...options })
  return { provider, fake, logged, ledger }
}

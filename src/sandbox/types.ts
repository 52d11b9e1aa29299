/**
 * Public shapes of the PayLater sandbox. Kept free of Medusa and of the plugin's client so that the
 * sandbox can ship as a standalone tool (`npx paylater-sandbox`) and be started from any test.
 */

export type WebhookStatus = "success" | "failed" | "pending"

/** PayLater's status codes: 0 not initiated, 1 pending, 2 success, 3 failed. */
export type OrderStatusCode = 0 | 1 | 2 | 3

export type FaultEndpoint = "token" | "link" | "rtp" | "status" | "refund" | "shopper" | "*"
export type FaultMode = "slow" | "error" | "timeout" | "garbage"
export type WebhookFaultMode = "drop" | "delay" | "duplicate" | "reorder"

export interface OutletConfig {
  id: number
  /** Decimal text in QAR, e.g. "300" or "300.00". */
  minAmount?: string
  maxAmount?: string
}

export interface ShopperConfig {
  mobileNumber: string
  email: string
  allowedSpendingLimit?: string
  currentSpendingLimit?: string
}

export interface SandboxOptions {
  /** 0 = a random free port (the default from code; the CLI defaults to 4010). */
  port?: number
  host?: string
  /** Base used to build `paymentLinkUrl` and page links; defaults to the listening URL. */
  publicUrl?: string
  clientId?: string
  clientSecret?: string
  merchantId?: string
  webhookSecret?: string
  /** Merchant webhook target; when absent notifications are recorded as `skipped`. */
  webhookUrl?: string | null
  outlets?: OutletConfig[]
  shoppers?: ShopperConfig[]
  tokenLifetimeSeconds?: number
  webhookRetry?: { attempts?: number; baseDelayMs?: number; timeoutMs?: number }
  /** Cap on stored orders, requests, deliveries and tokens each (oldest evicted first). */
  maxRecords?: number
  /**
   * JSON file that keeps the sandbox's orders (links, requests, payments, refunds) across restarts:
   * read at start, written after every change. Unset: everything is forgotten on stop.
   */
  stateFile?: string
  /** How often expired links / requests / tokens are swept without anyone asking (ms). */
  sweepIntervalMs?: number
  log?: (line: string) => void
}

export interface ResolvedOutlet {
  id: number
  /** Two-decimal text, e.g. "300.00". */
  minAmount: string
  maxAmount: string
  /** Bounds in dirhams (integer hundredths of a riyal): no floating point on money. */
  minDirhams: number
  maxDirhams: number
}

export interface ResolvedShopper {
  shopperId: string
  mobileNumber: string
  email: string
  allowedSpendingLimit: string
  currentSpendingLimit: string
}

export interface ResolvedSandboxOptions {
  port: number
  host: string
  /** Without a trailing slash; derived from the listening address unless configured. */
  publicUrl: string
  clientId: string
  clientSecret: string
  merchantId: string
  webhookSecret: string
  webhookUrl: string | null
  outlets: ResolvedOutlet[]
  shoppers: ResolvedShopper[]
  tokenLifetimeSeconds: number
  webhookRetry: { attempts: number; baseDelayMs: number; timeoutMs: number }
  maxRecords: number
  sweepIntervalMs: number
  stateFile: string | null
  log: (line: string) => void
}

export interface FaultSpec {
  endpoint: FaultEndpoint
  mode: FaultMode
  /** How many matching calls the fault applies to (default 1). */
  count?: number
  /** For `slow`: how long to wait before answering normally (default 2000). */
  delayMs?: number
  /** For `error`: the HTTP status (default 500). */
  status?: number
  /** For `error`: body kind; default JSON, except 502/503/504 which look like a proxy's HTML. */
  body?: "json" | "text"
  /**
   * The call takes effect before the fault answers (e.g. a link is created, then the answer
   * times out). Default false: the call is refused without side effects.
   */
  commit?: boolean
}

export interface WebhookFaultSpec {
  mode: WebhookFaultMode
  count?: number
  /** For `delay` (default 1000). */
  delayMs?: number
  /** Only notifications with this status (default: the next notification, whatever it says). */
  status?: WebhookStatus
}

export interface RefundRecord {
  amount: string
  full: boolean
  at: number
}

export interface OrderEvent {
  at: number
  event:
    | "created"
    | "opened"
    | "approved"
    | "declined"
    | "card_declined"
    | "abandoned"
    | "expired"
    | "refunded"
  status: OrderStatusCode
  detail?: string
}

export interface OrderRecord {
  kind: "link" | "rtp"
  /** The merchant's `order_id` (link) or `merchant_order_reference` (Request to Pay). */
  orderId: string
  payLaterOrderId: string
  merchantId: string
  outletId: number
  /** Two-decimal text, e.g. "350.00". */
  amount: string
  currency: "QAR"
  status: OrderStatusCode
  /** Why the order failed, as sent in the `failed` webhook's comments. */
  reason: string | null
  createdAt: number
  expiresAt: number
  expiryMinutes: number
  paidAt: number | null
  decidedAt: number | null
  link?: {
    uuid: string
    token: string
    paymentLinkUrl: string
    successRedirectUrl: string
    failRedirectUrl: string
    openedAt: number | null
    abandonedAt: number | null
    cardDeclines: number
  }
  rtp?: {
    mobileNumber: string
    /** As answered to the merchant: UTC wall time, no zone, nine fractional digits. */
    expiryDate: string
  }
  refunds: RefundRecord[]
  refundedAmount: string
  events: OrderEvent[]
}

export type RequestEndpoint =
  | "token"
  | "link"
  | "rtp"
  | "status"
  | "refund"
  | "shopper"
  | "page"
  | "app"
  | "unknown"

export interface RequestRecord {
  id: number
  /** Sandbox (virtual clock) time of receipt, epoch ms. */
  time: number
  method: string
  path: string
  query: Record<string, string>
  endpoint: RequestEndpoint
  /** HTTP status answered; null while unanswered or when a `timeout` fault held it. */
  status: number | null
  fault?: FaultMode
  /** Parsed request body with secrets removed (token calls keep grant_type and client_id only). */
  body?: unknown
}

export type DeliveryOutcome = "delivered" | "rejected" | "error" | "dropped" | "skipped"

export interface DeliveryRecord {
  id: number
  /** Same for every attempt (and duplicate) of one notification. */
  notificationId: number
  orderId: string
  status: WebhookStatus
  /** 1-based; 0 when nothing was sent (dropped, skipped). */
  attempt: number
  maxAttempts: number
  url: string | null
  outcome: DeliveryOutcome
  responseStatus?: number
  responseBody?: string
  error?: string
  /** Set when a further attempt was scheduled after this one. */
  retryInMs?: number
  fault?: WebhookFaultMode
  duplicate?: boolean
  /** Sent through `sendWebhook` (one attempt, no faults, no state change). */
  manual?: boolean
  /** Sandbox (virtual clock) time the attempt finished, epoch ms. */
  time: number
  body: Record<string, unknown>
}

export interface SendWebhookInput {
  orderId: string
  status: WebhookStatus
  comments?: string
  /** Sign with a wrong secret so that verification must fail. */
  forged?: boolean
  /** Fields merged over the signed body after signing (to tamper with a notification). */
  body?: Record<string, unknown>
  /** Signed timestamp (epoch ms or s); default the virtual clock's now. */
  timestamp?: number
  /** Default: the order's PL id, or a fresh one for an unknown order id. */
  paylaterRef?: string
}

export interface PayLaterSandbox {
  url: string
  port: number
  options: ResolvedSandboxOptions
  stop(): Promise<void>
  reset(): void
  now(): number
  setClock(epochMs: number): void
  advanceClock(ms: number): void
  setWebhookUrl(url: string | null): void
  fault(f: FaultSpec): void
  webhookFault(f: WebhookFaultSpec): void
  clearFaults(): void
  /** Faults still armed, with their remaining uses. */
  listFaults(): {
    faults: Array<FaultSpec & { remaining: number }>
    webhookFaults: Array<WebhookFaultSpec & { remaining: number }>
  }
  openLink(orderId: string): void
  approveLink(orderId: string): Promise<void>
  declineLink(orderId: string, opts?: { final?: boolean }): Promise<void>
  abandonLink(orderId: string): void
  approveRequest(reference: string): Promise<void>
  declineRequest(reference: string): Promise<void>
  sendWebhook(p: SendWebhookInput): Promise<DeliveryRecord>
  order(orderIdOrReference: string): OrderRecord | undefined
  orders(): OrderRecord[]
  requests(): RequestRecord[]
  deliveries(): DeliveryRecord[]
  waitForDeliveries(
    pred: (d: DeliveryRecord[]) => boolean,
    timeoutMs?: number
  ): Promise<DeliveryRecord[]>
}

import { newPayLaterOrderId } from "./ids"
import { formatAmount, parseAmount } from "./money"
import type { Clock, Store } from "./state"
import type { OrderEvent, OrderRecord, OrderStatusCode, WebhookStatus } from "./types"
import type { Notification } from "./webhooks"

export type ActionErrorCode = "not_found" | "wrong_kind" | "already_used" | "expired" | "not_opened"

/** Thrown by shopper actions (programmatic or control API); `httpStatus` is what the control API answers. */
export class SandboxActionError extends Error {
  readonly httpStatus: number

  constructor(
    readonly code: ActionErrorCode,
    message: string
  ) {
    super(message)
    this.name = "SandboxActionError"
    this.httpStatus = { not_found: 404, wrong_kind: 409, already_used: 409, expired: 410, not_opened: 409 }[code]
  }
}

export const STATUS_MESSAGE: Record<OrderStatusCode, string> = {
  0: "Order not initiated",
  1: "pending",
  2: "success",
  3: "failed",
}

const WEBHOOK_STATUS: Record<1 | 2 | 3, WebhookStatus> = { 1: "pending", 2: "success", 3: "failed" }

export const COMMENTS = {
  linkOpened: "Shopper opened the payment link",
  linkPaid: "Paid with PayLater",
  linkDeclined: "declined by shopper",
  linkExpired: "Payment link expired",
  rtpSent: "Request to Pay sent to the shopper's app",
  rtpPaid: "Approved in the PayLater app",
  rtpDeclined: "declined by shopper",
  rtpExpired: "Request to Pay expired",
} as const

export interface OrderDeps {
  clock: Clock
  store: Store
  merchantId: string
  notify: (n: Notification) => void
}

/**
 * The order state machine, shared by the hosted page, the shopper app, the programmatic API and the
 * expiry sweep so that every path changes state and notifies the merchant the same way.
 */
export class OrderBook {
  constructor(private readonly deps: OrderDeps) {}

  /** By merchant order id / reference first, then PayLater's PL id or the link's uuid. */
  find(id: string): OrderRecord | undefined {
    const direct = this.deps.store.orders.get(id)
    if (direct) return direct
    const viaUuid = this.deps.store.linkIndex.get(id)
    if (viaUuid) return this.deps.store.orders.get(viaUuid)
    for (const order of this.deps.store.orders.values()) {
      if (order.payLaterOrderId === id) return order
    }
    return undefined
  }

  /** Link order ids and Request-to-Pay references share one namespace: the status call serves both. */
  exists(orderId: string): boolean {
    return this.deps.store.orders.has(orderId)
  }

  insert(
    fields: Pick<OrderRecord, "kind" | "orderId" | "outletId" | "amount" | "expiryMinutes" | "link" | "rtp">,
    initialStatus: 0 | 1
  ): OrderRecord {
    const now = this.deps.clock.now()
    const order: OrderRecord = {
      ...fields,
      payLaterOrderId: newPayLaterOrderId(now),
      merchantId: this.deps.merchantId,
      currency: "QAR",
      status: initialStatus,
      reason: null,
      createdAt: now,
      expiresAt: now + fields.expiryMinutes * 60_000,
      paidAt: null,
      decidedAt: null,
      refunds: [],
      refundedAmount: "0.00",
      events: [{ at: now, event: "created", status: initialStatus }],
    }
    this.deps.store.orders.set(order.orderId, order)
    if (order.link) this.deps.store.linkIndex.set(order.link.uuid, order.orderId)
    return order
  }

  /** Lazily expires an order whose time ran out; true when it is (now) expired-failed. */
  expireIfDue(order: OrderRecord): boolean {
    if (order.status === 0 || order.status === 1) {
      if (this.deps.clock.now() >= order.expiresAt) {
        this.fail(order, "expired", order.kind === "link" ? COMMENTS.linkExpired : COMMENTS.rtpExpired)
        return true
      }
      return false
    }
    return order.status === 3 && order.events.some((e) => e.event === "expired")
  }

  isDecided(order: OrderRecord): boolean {
    return order.status === 2 || order.status === 3
  }

  open(order: OrderRecord): void {
    if (order.status !== 0) return
    if (order.link) order.link.openedAt = this.deps.clock.now()
    this.change(order, 1, "opened", COMMENTS.linkOpened)
  }

  approve(order: OrderRecord): void {
    order.paidAt = this.deps.clock.now()
    this.change(order, 2, "approved", order.kind === "link" ? COMMENTS.linkPaid : COMMENTS.rtpPaid)
  }

  fail(order: OrderRecord, event: "declined" | "expired", reason: string): void {
    order.reason = reason
    this.change(order, 3, event, reason)
  }

  /** A note on the order that sends nothing: the status does not change. */
  note(order: OrderRecord, event: OrderEvent["event"], detail?: string): void {
    order.events.push({ at: this.deps.clock.now(), event, status: order.status, detail })
  }

  /** Announces a freshly created Request to Pay (it starts pending). */
  announce(order: OrderRecord, comments: string): void {
    this.deps.notify({
      orderId: order.orderId,
      paylaterRef: order.payLaterOrderId,
      status: "pending",
      comments,
    })
  }

  recordRefund(order: OrderRecord, dirhams: number, full: boolean): void {
    const now = this.deps.clock.now()
    const refunded = (parseAmount(order.refundedAmount) as { dirhams: number }).dirhams + dirhams
    order.refunds.push({ amount: formatAmount(dirhams), full, at: now })
    order.refundedAmount = formatAmount(refunded)
    this.note(order, "refunded", formatAmount(dirhams))
  }

  /** Expires everything that is due, so webhooks go out even when nobody asks. */
  sweep(): void {
    for (const order of this.deps.store.orders.values()) this.expireIfDue(order)
  }

  private change(order: OrderRecord, status: 1 | 2 | 3, event: OrderEvent["event"], comments: string): void {
    const now = this.deps.clock.now()
    order.status = status
    if (status !== 1) order.decidedAt = now
    order.events.push({ at: now, event, status, detail: comments })
    this.deps.notify({
      orderId: order.orderId,
      paylaterRef: order.payLaterOrderId,
      status: WEBHOOK_STATUS[status],
      comments,
    })
  }
}

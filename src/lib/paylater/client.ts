import axios, { type AxiosInstance } from "axios"
import { readPaymentLink, readPaymentStatus, readRefund, readRequestToPay, readShopper } from "./answers"
import { parsePayLaterConfig } from "./config"
import { isPayLaterError } from "./errors"
import { type HttpAnswer, type PayLaterOperation, sendRequest } from "./http"
import {
  validateOrderId,
  validatePaymentLinkInput,
  validateRefundInput,
  validateRequestToPayInput,
  validateShopperLookupInput,
} from "./inputs"
import { JsonDecimal, jsonBody } from "./json-body"
import { logRef } from "./log-ref"
import { maskMobile } from "./mobile"
import { invalidApiKeyError, isAuthFailure, parseJson } from "./remote-errors"
import { defaultSleep, withRetries } from "./retry"
import { TokenCache } from "./token"
import type {
  CreatePaymentLinkInput,
  PayLaterApi,
  PayLaterConfig,
  PayLaterConfigInput,
  PayLaterLogger,
  PaymentLink,
  PaymentStatus,
  RefundInput,
  RefundResult,
  RequestToPayInput,
  RequestToPayResult,
  Shopper,
  ShopperLookupInput,
} from "./types"

export const WEB_CHECKOUT_PATH = "/api/paylater/merchant-portal/v2/web-checkout"

export interface PayLaterClientDeps {
  logger?: PayLaterLogger
  http?: AxiosInstance
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Jitter source for retries, 0 ≤ random() < 1. */
  random?: () => number
}

interface Call {
  operation: PayLaterOperation
  /**
   * What log lines name the call by: short order id (log-ref.ts), masked mobile. Never secrets or
   * full numbers.
   */
  label: string
  /** The same with the whole order id, for debug lines only. */
  debugLabel: string
  method: "GET" | "POST"
  /** Under WEB_CHECKOUT_PATH, query included. */
  path: string
  body?: string
}

interface Exchange {
  answer: HttpAnswer
  body: unknown
}

function labels(orderId: string, rest = ""): Pick<Call, "label" | "debugLabel"> {
  return { label: `order=${logRef(orderId)}${rest}`, debugLabel: `order=${orderId}${rest}` }
}

const silentLogger: PayLaterLogger = { info() {}, warn() {}, error() {} }

/** PayLater's merchant API. Inputs are validated before any request; every answer is classified. */
export class PayLaterClient implements PayLaterApi {
  readonly config: PayLaterConfig
  private readonly http: AxiosInstance
  private readonly logger: PayLaterLogger
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly tokens: TokenCache

  constructor(configInput: PayLaterConfigInput | PayLaterConfig, deps: PayLaterClientDeps = {}) {
    this.config = parsePayLaterConfig(configInput)
    this.http = deps.http ?? axios.create()
    this.logger = deps.logger ?? silentLogger
    this.now = deps.now ?? Date.now
    this.sleep = deps.sleep ?? defaultSleep
    this.random = deps.random ?? Math.random
    this.tokens = new TokenCache(this.config, {
      http: this.http,
      logger: this.logger,
      now: this.now,
      sleep: this.sleep,
      random: this.random,
    })
  }

  /**
   * Asks PayLater for a token (once, nothing kept) and says how long it took: reachability and
   * credentials in one question. Throws the typed error (INVALID_CREDENTIALS, TIMEOUT, ...).
   */
  async checkConnection(): Promise<{ durationMs: number }> {
    const started = this.now()
    await this.tokens.probe()
    return { durationMs: Math.max(0, this.now() - started) }
  }

  async createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink> {
    const valid = validatePaymentLinkInput(input, this.config)
    const body = jsonBody({
      outlet_id: this.config.outletId,
      currency: valid.currency,
      amount: new JsonDecimal(valid.amount),
      order_id: valid.orderId,
      success_redirect_url: valid.successRedirectUrl,
      fail_redirect_url: valid.failRedirectUrl,
      expiry_duration: valid.expiryMinutes,
    })
    const call: Call = { operation: "createPaymentLink", ...labels(valid.orderId), method: "POST", path: "", body }
    return this.once(call, ({ answer, body: json }) => readPaymentLink(answer, json))
  }

  async requestToPay(input: RequestToPayInput): Promise<RequestToPayResult> {
    const valid = validateRequestToPayInput(input, this.config)
    const body = jsonBody({
      outlet_id: this.config.outletId,
      mobile_number: valid.mobileNumber,
      order_amount: new JsonDecimal(valid.amount),
      merchant_order_reference: valid.merchantOrderReference,
      expiry_minutes: valid.expiryMinutes,
    })
    const call: Call = {
      operation: "requestToPay",
      ...labels(valid.merchantOrderReference, ` mobile=${maskMobile(valid.mobileNumber)}`),
      method: "POST",
      path: "/request-to-pay",
      body,
    }
    return this.once(call, ({ answer, body: json }) =>
      readRequestToPay(answer, json, valid.merchantOrderReference)
    )
  }

  async getPaymentStatus(orderId: string): Promise<PaymentStatus> {
    const id = validateOrderId(orderId)
    const call: Call = {
      operation: "getPaymentStatus",
      ...labels(id),
      method: "GET",
      path: `/status?${new URLSearchParams({ order_id: id }).toString()}`,
    }
    return this.repeatable(call, ({ answer, body }) => readPaymentStatus(answer, body, id))
  }

  /** Never repeated by the client: PayLater refunds have no idempotency key. */
  async refund(input: RefundInput): Promise<RefundResult> {
    const valid = validateRefundInput(input)
    const body =
      valid.amount === undefined
        ? jsonBody({ order_id: valid.orderId })
        : jsonBody({ order_id: valid.orderId, amount: valid.amount })
    const call: Call = { operation: "refund", ...labels(valid.orderId), method: "POST", path: "/refund", body }
    return this.once(call, ({ answer, body: json }) => readRefund(answer, json))
  }

  async lookupShopper(input: ShopperLookupInput): Promise<Shopper | null> {
    const valid = validateShopperLookupInput(input)
    const query = new URLSearchParams({ mobile_number: valid.mobileNumber, email: valid.email })
    const call: Call = {
      operation: "lookupShopper",
      label: `mobile=${maskMobile(valid.mobileNumber)}`,
      debugLabel: `mobile=${maskMobile(valid.mobileNumber)}`,
      method: "GET",
      path: `/shopper?${query.toString()}`,
    }
    return this.repeatable(call, ({ answer, body }) => readShopper(answer, body))
  }

  /** Creates and refunds: sent once (plus the single retry after a refused token). */
  private async once<T>(call: Call, read: (exchange: Exchange) => T): Promise<T> {
    try {
      return read(await this.exchange(call))
    } catch (error) {
      this.logFailure(call, error, 1)
      throw error
    }
  }

  /** Reads: repeated on TIMEOUT / NETWORK / SERVER_ERROR up to maxAttempts. */
  private async repeatable<T>(call: Call, read: (exchange: Exchange) => T): Promise<T> {
    let attempts = 0
    try {
      return await withRetries(
        async () => {
          attempts++
          return read(await this.exchange(call))
        },
        {
          maxAttempts: this.config.maxAttempts,
          sleep: this.sleep,
          random: this.random,
          // The token fetch has its own retries; repeating them here would multiply attempts.
          skip: (error) => isPayLaterError(error) && error.details.operation === "token",
          onRetry: (error, attempt, delay) =>
            this.logger.warn(
              `PayLater ${call.operation} ${call.label}: attempt ${attempt} failed (${isPayLaterError(error) ? error.code : "error"}); retrying in ${delay} ms`
            ),
        }
      )
    } catch (error) {
      this.logFailure(call, error, attempts)
      throw error
    }
  }

  /** One request; a refused token is dropped and the request sent once more with a fresh one. */
  private async exchange(call: Call): Promise<Exchange> {
    const token = await this.tokens.get()
    const first = await this.send(call, token)
    if (!isAuthFailure(first.answer, first.body)) {
      return first
    }
    this.tokens.invalidate(token)
    const freshToken = await this.tokens.get()
    const second = await this.send(call, freshToken)
    if (isAuthFailure(second.answer, second.body)) {
      this.tokens.invalidate(freshToken)
      throw invalidApiKeyError(second.answer, second.body, call.operation)
    }
    return second
  }

  private async send(call: Call, token: string): Promise<Exchange> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: "application/json",
      "User-Agent": "medusa-payment-paylater",
    }
    if (call.body !== undefined) {
      headers["Content-Type"] = "application/json"
    }
    const answer = await sendRequest(
      this.http,
      {
        operation: call.operation,
        method: call.method,
        url: `${this.config.apiBaseUrl}${WEB_CHECKOUT_PATH}${call.path}`,
        headers,
        body: call.body,
        timeoutMs: this.config.timeoutMs,
      },
      this.now
    )
    const line = (label: string) => `PayLater ${call.operation} ${label}: HTTP ${answer.status} in ${answer.durationMs} ms`
    if (this.logger.debug) {
      this.logger.debug(line(call.debugLabel))
    } else {
      this.logger.info(line(call.label))
    }
    return { answer, body: parseJson(answer.text) }
  }

  private logFailure(call: Call, error: unknown, attempts: number): void {
    if (!isPayLaterError(error)) {
      this.logger.error(`PayLater ${call.operation} ${call.label} failed unexpectedly`)
      return
    }
    const status = error.httpStatus === undefined ? "" : ` HTTP ${error.httpStatus}`
    const remote = error.remoteCode === undefined ? "" : ` [${error.remoteCode}]`
    this.logger.warn(
      `PayLater ${call.operation} ${call.label} failed after ${attempts} attempt(s): ${error.code}${status}${remote}`
    )
  }
}

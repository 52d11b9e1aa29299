import http, { type ClientRequest } from "node:http"
import https from "node:https"
import { signWebhook } from "../lib/paylater/webhook"
import { DEFAULT_WEBHOOK_DELAY_MS, type FaultBook } from "./faults"
import { Timers, type Clock, type Store } from "./state"
import type {
  DeliveryOutcome,
  DeliveryRecord,
  ResolvedSandboxOptions,
  SendWebhookInput,
  WebhookFaultMode,
  WebhookStatus,
} from "./types"

export interface Notification {
  orderId: string
  paylaterRef: string
  status: WebhookStatus
  comments: string
}

interface Prepared {
  notificationId: number
  orderId: string
  status: WebhookStatus
  body: Record<string, unknown>
}

interface AttemptResult {
  responseStatus?: number
  responseBody?: string
  error?: string
}

interface DeliverOptions {
  fault?: WebhookFaultMode
  duplicate?: boolean
  /** Runs once the first attempt has finished (whatever its outcome): reorder/duplicate hang on it. */
  afterFirstAttempt?: () => void
}

const RESPONSE_BODY_KEEP = 1024

export interface WebhookDeps {
  options: ResolvedSandboxOptions
  clock: Clock
  store: Store
  faults: FaultBook
  log: (line: string) => void
  /** Called after each record, so waiters can re-check their predicate. */
  onRecord: () => void
}

/**
 * Sends signed notifications to the merchant. Nothing here is awaited by an API handler: a slow or
 * failing merchant must never slow the answer the merchant's own server is waiting for.
 */
export class WebhookDispatcher {
  /** Requests on the wire, with the function that settles each one (so an abort never hangs a caller). */
  private readonly inFlight = new Map<ClientRequest, (r: AttemptResult) => void>()
  /** Per order, the first attempt of its latest notification (see deliver). */
  private chains = new Map<string, Promise<void>>()
  /** Own timers, so reset() cancels retries and delays without touching anything else. */
  private readonly timers = new Timers()
  private held: Prepared[] = []
  /** Bumped by reset/stop so that attempts started before are neither recorded nor retried. */
  private generation = 0

  constructor(private readonly deps: WebhookDeps) {}

  notify(n: Notification): void {
    const prepared = this.prepare(n, this.deps.options.webhookSecret)
    const fault = this.deps.faults.takeWebhook(n.status)
    if (fault?.mode === "reorder") {
      this.held.push(prepared)
      this.deps.log(`webhook ${n.status} ${n.orderId} held back (reorder fault)`)
      return
    }
    const released = this.held.splice(0)
    const releaseHeld = () => {
      for (const h of released) this.deliver(h, { fault: "reorder" })
    }
    switch (fault?.mode) {
      case "drop":
        this.record(prepared, { attempt: 0, outcome: "dropped", fault: "drop" })
        releaseHeld()
        return
      case "delay": {
        const gen = this.generation
        this.timers.after(fault.delayMs ?? DEFAULT_WEBHOOK_DELAY_MS, () => {
          if (gen === this.generation) {
            this.deliver(prepared, { fault: "delay", afterFirstAttempt: releaseHeld })
          }
        })
        return
      }
      case "duplicate":
        // The copy follows the original's first attempt, like a retry whose ack was lost.
        this.deliver(prepared, {
          fault: "duplicate",
          afterFirstAttempt: () => {
            this.deliver(prepared, { fault: "duplicate", duplicate: true })
            releaseHeld()
          },
        })
        return
      default:
        this.deliver(prepared, { afterFirstAttempt: releaseHeld })
    }
  }

  /** One attempt, no faults, no retries: lets tests probe the merchant's verification directly. */
  async sendManual(input: SendWebhookInput, paylaterRef: string): Promise<DeliveryRecord> {
    const secret = input.forged
      ? `forged-${this.deps.options.webhookSecret}`
      : this.deps.options.webhookSecret
    const prepared = this.prepare(
      { orderId: input.orderId, paylaterRef, status: input.status, comments: input.comments ?? "" },
      secret,
      input.comments === undefined,
      input.timestamp
    )
    if (input.body) prepared.body = { ...prepared.body, ...input.body }
    const url = this.deps.options.webhookUrl
    if (!url) {
      return this.record(prepared, { attempt: 0, outcome: "skipped", manual: true, maxAttempts: 1 })
    }
    const gen = this.generation
    const result = await this.post(url, prepared.body)
    const fields = { attempt: 1, maxAttempts: 1, manual: true, ...this.outcomeOf(result) }
    if (gen !== this.generation) return this.build(prepared, { ...fields, url })
    return this.record(prepared, { ...fields, url })
  }

  /** Forget held notifications, cancel pending retries and delays, abort what is in flight. */
  reset(): void {
    this.generation += 1
    this.held = []
    this.chains = new Map()
    this.timers.cancelAll()
    for (const [req, finish] of [...this.inFlight]) {
      finish({ error: "aborted: sandbox reset or stopped" })
      req.destroy()
    }
    this.inFlight.clear()
  }

  private prepare(n: Notification, secret: string, omitComments = false, timestamp?: number): Prepared {
    const signed = signWebhook(
      {
        merchantId: this.deps.options.merchantId,
        orderId: n.orderId,
        paylaterRef: n.paylaterRef,
        status: n.status,
        timestamp: timestamp ?? this.deps.clock.now(),
        comments: omitComments ? undefined : n.comments,
      },
      secret
    )
    return {
      notificationId: this.deps.store.nextId(),
      orderId: n.orderId,
      status: n.status,
      body: { ...signed } as Record<string, unknown>,
    }
  }

  /**
   * Notifications of one order leave in order: each first attempt waits for the previous one's
   * first attempt to finish (retries then run on their own). Without this, "pending" and "success"
   * fired together would race on two connections; the reorder fault exists to test that case.
   */
  private deliver(prepared: Prepared, opts: DeliverOptions): void {
    const gen = this.generation
    const previous = this.chains.get(prepared.orderId)
    let release = () => {}
    const mine = new Promise<void>((resolve) => {
      release = () => {
        if (this.chains.get(prepared.orderId) === mine) this.chains.delete(prepared.orderId)
        resolve()
      }
    })
    this.chains.set(prepared.orderId, mine)
    const start = () => {
      if (gen !== this.generation) return
      this.send(prepared, {
        ...opts,
        afterFirstAttempt: () => {
          release()
          opts.afterFirstAttempt?.()
        },
      })
    }
    if (previous) void previous.then(start)
    else start()
  }

  private send(prepared: Prepared, opts: DeliverOptions): void {
    const { attempts, baseDelayMs } = this.deps.options.webhookRetry
    const gen = this.generation
    const attempt = (n: number): void => {
      const url = this.deps.options.webhookUrl
      if (!url) {
        this.record(prepared, { attempt: n === 1 ? 0 : n, outcome: "skipped", fault: opts.fault, duplicate: opts.duplicate })
        if (n === 1) opts.afterFirstAttempt?.()
        return
      }
      void this.post(url, prepared.body).then((result) => {
        if (gen !== this.generation) return
        const outcome = this.outcomeOf(result)
        const retry = outcome.outcome !== "delivered" && n < attempts
        // Exponential backoff: base, 2×base, 4×base…
        const retryInMs = retry ? baseDelayMs * 2 ** (n - 1) : undefined
        this.record(prepared, {
          attempt: n,
          url,
          ...outcome,
          retryInMs,
          fault: opts.fault,
          duplicate: opts.duplicate,
        })
        this.deps.log(
          `webhook ${prepared.status} ${prepared.orderId} attempt ${n}/${attempts} → ${
            result.responseStatus ?? result.error
          }${retry ? `, retry in ${retryInMs} ms` : ""}`
        )
        if (retry) this.timers.after(retryInMs as number, () => gen === this.generation && attempt(n + 1))
        if (n === 1) opts.afterFirstAttempt?.()
      })
    }
    attempt(1)
  }

  private outcomeOf(result: AttemptResult): { outcome: DeliveryOutcome } & AttemptResult {
    if (result.responseStatus === undefined) return { outcome: "error", ...result }
    const ok = result.responseStatus >= 200 && result.responseStatus < 300
    return { outcome: ok ? "delivered" : "rejected", ...result }
  }

  private build(prepared: Prepared, fields: Partial<DeliveryRecord> & { attempt: number; outcome: DeliveryOutcome }): DeliveryRecord {
    const record: DeliveryRecord = {
      id: this.deps.store.nextId(),
      notificationId: prepared.notificationId,
      orderId: prepared.orderId,
      status: prepared.status,
      maxAttempts: this.deps.options.webhookRetry.attempts,
      url: this.deps.options.webhookUrl,
      time: this.deps.clock.now(),
      body: { ...prepared.body },
      ...fields,
    }
    for (const key of Object.keys(record) as Array<keyof DeliveryRecord>) {
      if (record[key] === undefined) delete record[key]
    }
    return record
  }

  private record(prepared: Prepared, fields: Partial<DeliveryRecord> & { attempt: number; outcome: DeliveryOutcome }): DeliveryRecord {
    const record = this.build(prepared, fields)
    this.deps.store.deliveries.push(record)
    if (record.outcome === "dropped" || record.outcome === "skipped") {
      this.deps.log(`webhook ${record.status} ${record.orderId} ${record.outcome}`)
    }
    this.deps.onRecord()
    return record
  }

  private post(url: string, body: Record<string, unknown>): Promise<AttemptResult> {
    const { timeoutMs } = this.deps.options.webhookRetry
    return new Promise((resolve) => {
      let target: URL
      try {
        target = new URL(url)
      } catch {
        resolve({ error: "invalid webhook URL" })
        return
      }
      const payload = JSON.stringify(body)
      const transport = target.protocol === "https:" ? https : http
      let done = false
      let req: ClientRequest | undefined
      const finish = (result: AttemptResult) => {
        if (done) return
        done = true
        this.timers.cancel(timer)
        if (req) this.inFlight.delete(req)
        resolve(result)
      }
      const timer = this.timers.after(timeoutMs, () => {
        finish({ error: `timeout: no answer within ${timeoutMs} ms` })
        req?.destroy()
      })
      try {
        // agent:false = a fresh connection that closes afterwards, so no pooled socket outlives stop().
        req = transport.request(
          target,
          {
            method: "POST",
            agent: false,
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(payload),
              "user-agent": "PayLater-Sandbox-Webhook/1",
            },
          },
          (res) => {
            const chunks: Buffer[] = []
            let kept = 0
            res.on("data", (chunk: Buffer) => {
              if (kept < RESPONSE_BODY_KEEP) {
                chunks.push(chunk)
                kept += chunk.length
              }
            })
            res.on("end", () =>
              finish({
                responseStatus: res.statusCode,
                responseBody: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_BODY_KEEP),
              })
            )
            res.on("error", (err) => finish({ error: err.message }))
          }
        )
      } catch (err) {
        finish({ error: (err as Error).message })
        return
      }
      this.inFlight.set(req, finish)
      req.on("error", (err) => finish({ error: err.message || String(err) }))
      req.end(payload)
    })
  }
}

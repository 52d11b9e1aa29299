import http from "node:http"
import type { Socket } from "node:net"
import { createContext, type SandboxContext } from "./context"
import { faultSchema, webhookFaultSchema } from "./faults"
import { linkActions } from "./link"
import { loadState, saveState } from "./persist"
import { newPayLaterOrderId } from "./ids"
import { resolveOptions } from "./options"
import { Timers } from "./state"
import { rtpActions } from "./rtp"
import { createRequestHandler } from "./server"
import type {
  DeliveryRecord,
  FaultSpec,
  OrderRecord,
  PayLaterSandbox,
  RequestRecord,
  ResolvedSandboxOptions,
  SandboxOptions,
  SendWebhookInput,
  WebhookFaultSpec,
} from "./types"

export * from "./types"
export { SandboxActionError } from "./orders"
export { API_BASE_PATH } from "./server"
export { TOKEN_PATH } from "./token"
export { DEFAULTS as SANDBOX_DEFAULTS, DEFAULT_SHOPPERS } from "./options"

/** Records are handed out as copies: callers may keep or mutate them without touching the sandbox. */
const copy = <T>(value: T): T => structuredClone(value)

class Sandbox implements PayLaterSandbox {
  url = ""
  port = 0
  readonly options: ResolvedSandboxOptions
  private readonly ctx: SandboxContext
  private readonly server: http.Server
  private readonly sockets = new Set<Socket>()
  private readonly waiters = new Set<{ reject: (e: Error) => void }>()
  /** Waiters' deadlines; only stop() cancels them early. */
  private readonly waitTimers = new Timers()
  private stopping: Promise<void> | null = null

  constructor(options: ResolvedSandboxOptions) {
    this.options = options
    this.ctx = createContext(options)
    const handle = createRequestHandler(this.ctx, this)
    this.server = http.createServer((req, res) => {
      // Every change to an order arrives as a POST (API, hosted page, shopper app, control API).
      if (options.stateFile && req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => this.persist())
      handle(req, res)
    })
    // Keep-alive sockets would otherwise let a client (or jest) hang on to the process after stop().
    this.server.on("connection", (socket) => {
      this.sockets.add(socket)
      socket.on("close", () => this.sockets.delete(socket))
    })
  }

  /** Keeps the orders in `stateFile`; a failed write is logged, never fatal to the request. */
  private persist(): void {
    if (!this.options.stateFile) return
    try {
      saveState(this.options.stateFile, this.ctx.store)
    } catch (e) {
      this.options.log(`state file ${this.options.stateFile} not written: ${(e as Error).message}`)
    }
  }

  async listen(): Promise<void> {
    if (this.options.stateFile) {
      const restored = loadState(this.options.stateFile, this.ctx.store)
      if (restored) this.options.log(`restored ${restored} order(s) from ${this.options.stateFile}`)
    }
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => {
        this.server.close()
        reject(err)
      }
      this.server.once("error", onError)
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off("error", onError)
        resolve()
      })
    })
    const address = this.server.address()
    this.port = typeof address === "object" && address ? address.port : this.options.port
    this.options.port = this.port
    // A wildcard bind address is not something a browser can open.
    const host = ["0.0.0.0", "::", ""].includes(this.options.host) ? "127.0.0.1" : this.options.host
    this.url = `http://${host.includes(":") ? `[${host}]` : host}:${this.port}`
    if (!this.options.publicUrl) this.options.publicUrl = this.url
    this.ctx.timers.every(this.options.sweepIntervalMs, () => this.sweep())
  }

  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = new Promise<void>((resolve) => {
        this.persist()
        this.ctx.timers.cancelAll()
        this.waitTimers.cancelAll()
        this.ctx.webhooks.reset()
        for (const waiter of this.waiters) waiter.reject(new Error("PayLater sandbox stopped"))
        this.waiters.clear()
        this.ctx.deliveryListeners.clear()
        if (!this.server.listening) {
          resolve()
          return
        }
        this.server.close(() => resolve())
        for (const socket of this.sockets) socket.destroy()
        this.sockets.clear()
      })
    }
    return this.stopping
  }

  reset(): void {
    // Requests already held by a slow fault still get their answer; pending webhooks do not.
    this.ctx.webhooks.reset()
    this.ctx.store.clear()
    this.ctx.faults.clear()
    this.ctx.clock.reset()
  }

  now(): number {
    return this.ctx.clock.now()
  }

  setClock(epochMs: number): void {
    this.ctx.clock.set(epochMs)
    this.sweep()
  }

  advanceClock(ms: number): void {
    this.ctx.clock.advance(ms)
    this.sweep()
  }

  setWebhookUrl(url: string | null): void {
    // Refuse nonsense here rather than record failed deliveries to it later.
    if (url !== null && !/^https?:$/.test(new URL(url).protocol)) {
      throw new TypeError(`Webhook URL must be http(s): ${url}`)
    }
    this.options.webhookUrl = url
  }

  fault(f: FaultSpec): void {
    this.ctx.faults.add(faultSchema.parse(f))
  }

  webhookFault(f: WebhookFaultSpec): void {
    this.ctx.faults.addWebhook(webhookFaultSchema.parse(f))
  }

  clearFaults(): void {
    this.ctx.faults.clear()
  }

  listFaults() {
    return this.ctx.faults.list()
  }

  openLink(orderId: string): void {
    linkActions.open(this.ctx, orderId)
  }

  async approveLink(orderId: string): Promise<void> {
    linkActions.approve(this.ctx, orderId)
  }

  async declineLink(orderId: string, opts: { final?: boolean } = {}): Promise<void> {
    linkActions.decline(this.ctx, orderId, opts.final ?? true)
  }

  abandonLink(orderId: string): void {
    linkActions.abandon(this.ctx, orderId)
  }

  async approveRequest(reference: string): Promise<void> {
    rtpActions.approve(this.ctx, reference)
  }

  async declineRequest(reference: string): Promise<void> {
    rtpActions.decline(this.ctx, reference)
  }

  async sendWebhook(p: SendWebhookInput): Promise<DeliveryRecord> {
    const order = this.ctx.orders.find(p.orderId)
    const ref = p.paylaterRef ?? order?.payLaterOrderId ?? newPayLaterOrderId(this.now())
    return copy(await this.ctx.webhooks.sendManual(p, ref))
  }

  order(orderIdOrReference: string): OrderRecord | undefined {
    const order = this.ctx.orders.find(orderIdOrReference)
    if (order) this.ctx.orders.expireIfDue(order)
    return order ? copy(order) : undefined
  }

  orders(): OrderRecord[] {
    this.ctx.orders.sweep()
    return copy([...this.ctx.store.orders.values()])
  }

  requests(): RequestRecord[] {
    return copy(this.ctx.store.requests.all())
  }

  deliveries(): DeliveryRecord[] {
    return copy(this.ctx.store.deliveries.all())
  }

  waitForDeliveries(pred: (d: DeliveryRecord[]) => boolean, timeoutMs = 5000): Promise<DeliveryRecord[]> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const current = this.deliveries()
        let met: boolean
        try {
          met = pred(current)
        } catch (e) {
          // A throwing predicate fails the wait, never the delivery that triggered the check.
          waiter.reject(e as Error)
          return
        }
        if (!met) return
        finish()
        resolve(current)
      }
      const waiter = {
        reject: (e: Error) => {
          finish()
          reject(e)
        },
      }
      const finish = () => {
        this.waitTimers.cancel(timer)
        this.ctx.deliveryListeners.delete(listener)
        this.waiters.delete(waiter)
      }
      const listener = () => check()
      const timer = this.waitTimers.after(timeoutMs, () => {
        const seen = this.deliveries()
          .map((d) => `${d.orderId} ${d.status} #${d.attempt} ${d.outcome}${d.responseStatus ? ` ${d.responseStatus}` : ""}`)
          .join("; ")
        waiter.reject(new Error(`waitForDeliveries: condition not met within ${timeoutMs} ms; deliveries: ${seen || "none"}`))
      })
      this.waiters.add(waiter)
      this.ctx.deliveryListeners.add(listener)
      check()
    })
  }

  private sweep(): void {
    this.ctx.orders.sweep()
    this.ctx.store.purgeExpiredTokens(this.ctx.clock.now())
  }
}

/**
 * Starts a PayLater sandbox. From code the port defaults to 0 (a random free port): read `url`.
 * Nothing is logged unless `log` is given.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<PayLaterSandbox> {
  const resolved = resolveOptions(opts)
  const sandbox = new Sandbox({ ...resolved, publicUrl: resolved.publicUrl ?? "" })
  await sandbox.listen()
  return sandbox
}

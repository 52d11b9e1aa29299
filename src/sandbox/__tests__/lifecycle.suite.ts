import { createHook } from "node:async_hooks"
import http from "node:http"
import { startSandbox } from ".."
import { client, harness, linkBody, startReceiver } from "./helpers"

const settle = () => new Promise((r) => setImmediate(r))

/**
 * Records every server, socket and timer created from now on, with the stack that created it, and
 * forgets each one when Node destroys it. Counting the process's handles before and after is not
 * enough: jest and earlier tests own handles that come and go on their own schedule.
 */
function trackHandles() {
  const live = new Map<number, { type: string; stack: string }>()
  const kinds = new Set(["TCPSERVERWRAP", "TCPWRAP", "Timeout"])
  const hook = createHook({
    init(id, type) {
      if (!kinds.has(type)) return
      const stack = new Error().stack ?? ""
      // Jest's reporter shares the process when it runs suites in band; its timers are not ours.
      if (/node_modules\/(@jest\/|jest-)/.test(stack)) return
      // Node's http module caches the Date header for up to a second with a timer of its own
      // (node:internal/http utcDate), shared by every server in the process: not the sandbox's.
      if (/at utcDate \(node:internal\/http/.test(stack)) return
      live.set(id, { type, stack })
    },
    destroy(id) {
      live.delete(id)
    },
  }).enable()
  return {
    stop: () => hook.disable(),
    /** Handles created since tracking began that are still open (timers: still scheduled), each with where it was made. */
    open: () => [...live.values()].map((h) => `${h.type}\n${h.stack.split("\n").slice(2, 9).join("\n")}`),
  }
}

describe("sandbox: lifecycle and bounds", () => {
  it("listens on a random port from code, on 127.0.0.1, with defaults resolved", async () => {
    const a = await startSandbox()
    const b = await startSandbox()
    try {
      expect(a.port).toBeGreaterThan(0)
      expect(a.port).not.toBe(b.port)
      expect(a.url).toBe(`http://127.0.0.1:${a.port}`)
      expect(a.options).toMatchObject({
        host: "127.0.0.1",
        publicUrl: a.url,
        clientId: "sandbox-client",
        clientSecret: "sandbox-secret",
        merchantId: "sandbox-merchant",
        webhookSecret: "sandbox-webhook-secret",
        webhookUrl: null,
        outlets: [{ id: 1000000061, minAmount: "300.00", maxAmount: "25000.00", minDirhams: 30000, maxDirhams: 2500000 }],
        tokenLifetimeSeconds: 300,
        webhookRetry: { attempts: 5, baseDelayMs: 500, timeoutMs: 5000 },
        maxRecords: 10000,
      })
      expect(a.options.shoppers.map((s) => s.mobileNumber)).toEqual([
        "97451118021",
        "97451118022",
        "97451118023",
        "97451118024",
        "97451118025",
      ])
      const index = await client(a.url).get("/")
      expect(index.status).toBe(200)
      expect(index.data).toContain("/auth/realms/api/protocol/openid-connect/token")
    } finally {
      await a.stop()
      await b.stop()
    }
  })

  it.each([
    [{ port: -1 }],
    [{ webhookUrl: "not a url" }],
    [{ outlets: [{ id: 1, minAmount: "500", maxAmount: "400" }] }],
    [{ outlets: [{ id: 1 }, { id: 1 }] }],
    [{ shoppers: [{ mobileNumber: "12", email: "a@b.c" }] }],
    [{ webhookRetry: { attempts: 0 } }],
  ])("refuses invalid options %j", async (opts) => {
    await expect(startSandbox(opts as never)).rejects.toThrow(/Invalid PayLater sandbox options/)
  })

  it("rejects when the port is taken", async () => {
    const a = await startSandbox()
    try {
      await expect(startSandbox({ port: a.port })).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await a.stop()
    }
  })

  it("keeps at most maxRecords orders, requests, deliveries and tokens (oldest evicted)", async () => {
    const h = await harness({ maxRecords: 5 })
    try {
      const firstToken = await h.token()
      const api = await h.api()
      const ids: string[] = []
      const urls: string[] = []
      for (let i = 0; i < 8; i++) {
        const body = linkBody()
        const res = await api.post("", body)
        ids.push(body.order_id as string)
        urls.push(res.data.paymentLinkUrl)
      }
      expect(h.sandbox.orders().map((o) => o.orderId)).toEqual(ids.slice(3))
      expect(h.sandbox.order(ids[0])).toBeUndefined()
      expect((await h.http.get(urls[0])).status).toBe(404)
      expect(h.sandbox.requests()).toHaveLength(5)
      for (const id of ids.slice(3)) h.sandbox.openLink(id)
      await h.sandbox.waitForDeliveries((d) => d.length === 5)
      h.sandbox.openLink(ids[3]) // already open: no new notification
      await api.post("", linkBody())
      h.sandbox.openLink(h.sandbox.orders().pop()?.orderId as string)
      await h.sandbox.waitForDeliveries((d) => d[4]?.orderId !== ids[7])
      expect(h.sandbox.deliveries()).toHaveLength(5)
      // Five more tokens push the first one out.
      for (let i = 0; i < 5; i++) await h.token()
      const stale = client(`${h.sandbox.url}/api/paylater/merchant-portal/v2/web-checkout`)
      stale.defaults.headers.common.authorization = `Bearer ${firstToken}`
      expect((await stale.get("/status", { params: { order_id: "x" } })).status).toBe(401)
    } finally {
      await h.sandbox.stop()
    }
  })

  it("records are copies: mutating them changes nothing inside", async () => {
    const h = await harness()
    try {
      const api = await h.api()
      const body = linkBody()
      await api.post("", body)
      const copy = h.sandbox.order(body.order_id as string)
      if (copy) copy.status = 2
      expect(h.sandbox.order(body.order_id as string)?.status).toBe(0)
    } finally {
      await h.sandbox.stop()
    }
  })

  it("stop() closes every socket and timer, even with work in flight", async () => {
    const tracked = trackHandles()
    const receiver = await startReceiver()
    receiver.respond = (_r, i) => (i === 0 ? 500 : "hang")
    const h = await harness({
      webhookUrl: receiver.url,
      webhookRetry: { attempts: 5, baseDelayMs: 60_000, timeoutMs: 60_000 },
    })
    const api = await h.api()
    const a = linkBody()
    const b = linkBody()
    await api.post("", a)
    await api.post("", b)

    // A webhook waiting for its retry, one hanging on the receiver, one delayed, one held back.
    h.sandbox.openLink(a.order_id as string)
    await h.sandbox.waitForDeliveries((d) => d.length === 1)
    h.sandbox.openLink(b.order_id as string)
    h.sandbox.webhookFault({ mode: "delay", delayMs: 60_000 })
    await h.sandbox.approveLink(a.order_id as string)
    h.sandbox.webhookFault({ mode: "reorder" })
    await h.sandbox.approveLink(b.order_id as string)
    const waiting = h.sandbox.waitForDeliveries(() => false, 60_000).catch((e: Error) => e)

    // A request held by a timeout fault, one held by a slow fault.
    const raw = (path: string) =>
      new Promise<string>((resolve) => {
        const req = http.get(`${h.sandbox.url}${path}`, { agent: false }, (res) => {
          res.resume()
          res.on("end", () => resolve(`answered ${res.statusCode}`))
        })
        req.on("error", (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`))
      })
    h.sandbox.fault({ endpoint: "status", mode: "timeout" })
    h.sandbox.fault({ endpoint: "status", mode: "slow", delayMs: 60_000 })
    const held = raw("/api/paylater/merchant-portal/v2/web-checkout/status?order_id=x")
    const slow = raw("/api/paylater/merchant-portal/v2/web-checkout/status?order_id=y")
    // A keep-alive connection left idle by a client.
    const keepAlive = new http.Agent({ keepAlive: true })
    await new Promise<void>((resolve) =>
      http.get(`${h.sandbox.url}/__sandbox/clock`, { agent: keepAlive }, (res) => {
        res.resume()
        res.on("end", () => resolve())
      })
    )
    await new Promise((r) => setTimeout(r, 50))
    // The final check means something only if plenty was open. (The sandbox's timers are unref'd,
    // so they never keep a process alive, but stop() must clear them all the same.)
    const during = tracked.open()
    await h.sandbox.stop()
    expect(during.filter((h) => h.startsWith("TCPWRAP")).length).toBeGreaterThan(3)
    expect(during.filter((h) => h.startsWith("TCPSERVERWRAP")).length).toBeGreaterThan(0)
    expect(during.filter((h) => h.startsWith("Timeout")).length).toBeGreaterThan(2)

    await h.sandbox.stop() // idempotent
    expect(await held).toMatch(/^error/)
    expect(await slow).toMatch(/^error/)
    expect(await waiting).toBeInstanceOf(Error)
    keepAlive.destroy()
    await receiver.close()
    await settle()
    await settle()

    // Every server, socket and timer made since the test began is gone, the sandbox's unref'd
    // timers included.
    tracked.stop()
    expect(tracked.open()).toEqual([])
    const refused = await raw("/")
    expect(refused).toBe("error ECONNREFUSED")
  })

  it("reset() forgets orders, records and faults but keeps options and the webhook target", async () => {
    const receiver = await startReceiver()
    const h = await harness()
    try {
      h.sandbox.setWebhookUrl(receiver.url)
      const api = await h.api()
      await api.post("", linkBody())
      h.sandbox.fault({ endpoint: "*", mode: "error" })
      h.sandbox.advanceClock(3_600_000)
      h.sandbox.reset()
      expect(h.sandbox.orders()).toHaveLength(0)
      expect(h.sandbox.requests()).toHaveLength(0)
      expect(h.sandbox.deliveries()).toHaveLength(0)
      expect(h.sandbox.listFaults()).toEqual({ faults: [], webhookFaults: [] })
      expect(Math.abs(h.sandbox.now() - Date.now())).toBeLessThan(60_000)
      expect(h.sandbox.options.webhookUrl).toBe(receiver.url)
    } finally {
      await h.sandbox.stop()
      await receiver.close()
    }
  })
})

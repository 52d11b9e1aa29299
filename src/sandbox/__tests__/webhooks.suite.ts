import fs from "node:fs"
import path from "node:path"
import { computeSignature, computeTxHash, verifyWebhook } from "../../lib/paylater/webhook"
import { harness, linkBody, rtpBody, startReceiver, until, type Harness, type Receiver } from "./helpers"

const SECRET = "sandbox-webhook-secret"
const VECTORS_PATH = path.resolve(__dirname, "../../../../shared/spec/webhook-vectors.json")

interface Vector {
  secret: string
  body: Record<string, unknown> & { merchantId: string; orderId: string; status: "success" | "failed" | "pending"; timestamp: number }
  valid: boolean
}

describe("sandbox: webhook deliveries", () => {
  let h: Harness
  let receiver: Receiver

  beforeAll(async () => {
    receiver = await startReceiver()
    h = await harness({
      webhookUrl: receiver.url,
      // A generous per-attempt timeout so a loaded machine never turns a 500 into a timeout.
      webhookRetry: { attempts: 3, baseDelayMs: 20, timeoutMs: 10_000 },
      sweepIntervalMs: 3_600_000,
    })
  })
  afterAll(async () => {
    await h.sandbox.stop()
    await receiver.close()
  })
  beforeEach(() => {
    h.sandbox.reset()
    h.sandbox.setWebhookUrl(receiver.url)
    receiver.received.length = 0
    receiver.respond = (r) => (verifyWebhook(r.body, SECRET).ok ? 200 : 403)
  })

  async function newLink(): Promise<string> {
    const api = await h.api()
    const body = linkBody()
    expect((await api.post("", body)).status).toBe(200)
    return body.order_id as string
  }

  it("posts the signed JSON body on every state change, verifiable with verifyWebhook", async () => {
    const id = await newLink()
    h.sandbox.openLink(id)
    await h.sandbox.approveLink(id)
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(d.map((x) => [x.status, x.outcome, x.responseStatus, x.attempt])).toEqual([
      ["pending", "delivered", 200, 1],
      ["success", "delivered", 200, 1],
    ])
    expect(receiver.received).toHaveLength(2)
    const order = h.sandbox.order(id)
    for (const r of receiver.received) {
      expect(r.headers["content-type"]).toBe("application/json")
      expect(Object.keys(r.body).sort()).toEqual(
        ["comments", "merchantId", "orderId", "paylaterRef", "signature", "status", "timestamp", "txHash"].sort()
      )
      expect(r.body).toMatchObject({ merchantId: "sandbox-merchant", orderId: id, paylaterRef: order?.payLaterOrderId })
      expect(typeof r.body.timestamp).toBe("number")
      const v = verifyWebhook(r.body, SECRET, { expectedMerchantId: "sandbox-merchant" })
      expect(v.ok).toBe(true)
    }
    expect(receiver.received.map((r) => r.body.status)).toEqual(["pending", "success"])
    // The record keeps the body exactly as sent.
    expect(d[1].body).toEqual(receiver.received[1].body)
  })

  it("stamps notifications with the virtual clock in epoch milliseconds", async () => {
    const at = Date.UTC(2030, 0, 1)
    h.sandbox.setClock(at)
    const id = await newLink()
    h.sandbox.openLink(id)
    await h.sandbox.waitForDeliveries((x) => x.length === 1)
    const ts = receiver.received[0].body.timestamp as number
    expect(ts).toBeGreaterThanOrEqual(at)
    expect(ts).toBeLessThan(at + 60_000)
  })

  describe("published vectors", () => {
    const file = JSON.parse(fs.readFileSync(VECTORS_PATH, "utf8")) as { vectors: Vector[] }
    const valid = file.vectors.filter((v) => v.valid)

    it("the file is where the test expects it and has valid and invalid rows", () => {
      expect(valid.length).toBeGreaterThanOrEqual(4)
      expect(file.vectors.some((v) => !v.valid)).toBe(true)
    })

    it.each(valid.map((v, i) => [i, v] as const))("valid row %i: the sandbox signs to the same txHash/signature", async (_i, vector) => {
      const rx = await startReceiver()
      const sb = await harness({ merchantId: vector.body.merchantId, webhookSecret: vector.secret, webhookUrl: rx.url })
      try {
        const record = await sb.sandbox.sendWebhook({
          orderId: vector.body.orderId,
          status: vector.body.status,
          timestamp: vector.body.timestamp,
          paylaterRef: vector.body.paylaterRef as string,
          ...(vector.body.comments !== undefined ? { comments: vector.body.comments as string } : {}),
        })
        expect(record).toMatchObject({ outcome: "delivered", responseStatus: 200 })
        expect(rx.received[0].body).toEqual(vector.body)
        expect(rx.received[0].body.txHash).toBe(vector.body.txHash)
        expect(rx.received[0].body.signature).toBe(vector.body.signature)
        expect(verifyWebhook(rx.received[0].body, vector.secret).ok).toBe(true)
      } finally {
        await sb.sandbox.stop()
        await rx.close()
      }
    })

    it.each(file.vectors.filter((v) => !v.valid).map((v, i) => [i, v] as const))(
      "invalid row %i is refused by verifyWebhook and differs from what the sandbox signs",
      (_i, vector) => {
        expect(verifyWebhook(vector.body, vector.secret).ok).toBe(false)
        const honest = computeSignature(computeTxHash(vector.body), vector.secret)
        expect(honest === vector.body.signature && computeTxHash(vector.body) === vector.body.txHash).toBe(false)
      }
    )
  })

  describe("retries", () => {
    it("retries with exponential backoff until a 2xx, resending the same signed body", async () => {
      receiver.respond = (_r, i) => (i === 0 ? 500 : i === 1 ? 503 : 200)
      const id = await newLink()
      h.sandbox.openLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.some((y) => y.outcome === "delivered"))
      expect(d.map((x) => [x.attempt, x.outcome, x.responseStatus, x.retryInMs])).toEqual([
        [1, "rejected", 500, 20],
        [2, "rejected", 503, 40],
        [3, "delivered", 200, undefined],
      ])
      expect(new Set(d.map((x) => x.notificationId)).size).toBe(1)
      expect(new Set(receiver.received.map((r) => JSON.stringify(r.body))).size).toBe(1)
    })

    it("gives up after `attempts`", async () => {
      receiver.respond = () => 500
      const id = await newLink()
      h.sandbox.openLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 3)
      expect(d.map((x) => x.attempt)).toEqual([1, 2, 3])
      expect(d[2].retryInMs).toBeUndefined()
      expect(d[2]).toMatchObject({ outcome: "rejected", maxAttempts: 3 })
      expect(receiver.received).toHaveLength(3)
    })

    it("an attempt with no answer in time counts as failed and is retried", async () => {
      receiver.respond = (_r, i) => (i === 0 ? "hang" : 200)
      // The second attempt must be answered within the timeout: 200 ms was missed on a loaded CI machine.
      const quick = await harness({ webhookUrl: receiver.url, webhookRetry: { attempts: 3, baseDelayMs: 20, timeoutMs: 2000 } })
      try {
        const api = await quick.api()
        const body = linkBody()
        await api.post("", body)
        quick.sandbox.openLink(body.order_id as string)
        const d = await quick.sandbox.waitForDeliveries((x) => x.some((y) => y.outcome === "delivered"), 10_000)
        expect(d[0]).toMatchObject({ attempt: 1, outcome: "error", error: expect.stringContaining("timeout") })
        expect(d[0].responseStatus).toBeUndefined()
        expect(d[1]).toMatchObject({ attempt: 2, outcome: "delivered" })
      } finally {
        await quick.sandbox.stop()
      }
    }, 15_000)

    it("records connection errors", async () => {
      const dead = await startReceiver()
      const url = dead.url
      await dead.close()
      h.sandbox.setWebhookUrl(url)
      const id = await newLink()
      h.sandbox.openLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 3)
      expect(d.every((x) => x.outcome === "error" && typeof x.error === "string")).toBe(true)
    })

    it("never holds up the API answer", async () => {
      receiver.respond = () => "hang"
      // A long per-attempt timeout: the API answer must not wait for it.
      const patient = await harness({ webhookUrl: receiver.url, webhookRetry: { attempts: 1, timeoutMs: 60_000 } })
      try {
        const api = await patient.api()
        const res = await api.post("/request-to-pay", rtpBody())
        expect(res.status).toBe(200)
        // The pending notification is still on the wire: its receiver never answers.
        expect(patient.sandbox.deliveries()).toHaveLength(0)
        await until(() => receiver.received.length === 1)
      } finally {
        await patient.sandbox.stop()
      }
    })
  })

  it("without a webhook URL, notifications are recorded as skipped", async () => {
    h.sandbox.setWebhookUrl(null)
    const id = await newLink()
    h.sandbox.openLink(id)
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 1)
    expect(d[0]).toMatchObject({ orderId: id, status: "pending", attempt: 0, outcome: "skipped", url: null })
    expect(receiver.received).toHaveLength(0)
  })

  describe("webhook faults", () => {
    it("drop: not sent, recorded as dropped; the next one goes through", async () => {
      h.sandbox.webhookFault({ mode: "drop" })
      const id = await newLink()
      h.sandbox.openLink(id)
      await h.sandbox.approveLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
      expect(d.map((x) => [x.status, x.outcome, x.fault])).toEqual([
        ["pending", "dropped", "drop"],
        ["success", "delivered", undefined],
      ])
      expect(receiver.received.map((r) => r.body.status)).toEqual(["success"])
    })

    it("drop for one status: only that notification is lost (the README's lost-webhook recipe)", async () => {
      h.sandbox.webhookFault({ mode: "drop", status: "success" })
      const id = await newLink()
      h.sandbox.openLink(id)
      await h.sandbox.approveLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
      // Recorded when settled: the drop at once, the delivery when its answer came.
      expect(d.map((x) => [x.status, x.outcome, x.fault]).sort()).toEqual([
        ["pending", "delivered", undefined],
        ["success", "dropped", "drop"],
      ])
      expect(receiver.received.map((r) => r.body.status)).toEqual(["pending"])
      expect(h.sandbox.listFaults().webhookFaults).toHaveLength(0)
    })

    it("drop with count 2 drops two", async () => {
      h.sandbox.webhookFault({ mode: "drop", count: 2 })
      const id = await newLink()
      h.sandbox.openLink(id)
      await h.sandbox.approveLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
      expect(d.every((x) => x.outcome === "dropped")).toBe(true)
      expect(h.sandbox.listFaults().webhookFaults).toHaveLength(0)
    })

    it("delay: sent after delayMs", async () => {
      h.sandbox.webhookFault({ mode: "delay", delayMs: 150 })
      const id = await newLink()
      h.sandbox.openLink(id)
      expect(h.sandbox.deliveries()).toHaveLength(0)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 1)
      expect(d[0]).toMatchObject({ status: "pending", outcome: "delivered", fault: "delay" })
    })

    it("duplicate: the same notification arrives twice", async () => {
      h.sandbox.webhookFault({ mode: "duplicate" })
      const id = await newLink()
      h.sandbox.openLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
      expect(d.map((x) => x.duplicate ?? false)).toEqual([false, true])
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[0].body).toEqual(receiver.received[1].body)
    })

    it("reorder: held back and sent after the next one", async () => {
      h.sandbox.webhookFault({ mode: "reorder" })
      const id = await newLink()
      h.sandbox.openLink(id)
      await h.sandbox.approveLink(id)
      await h.sandbox.waitForDeliveries((x) => x.length === 2)
      expect(receiver.received.map((r) => r.body.status)).toEqual(["success", "pending"])
      expect(h.sandbox.deliveries().map((x) => [x.status, x.fault])).toEqual([
        ["success", undefined],
        ["pending", "reorder"],
      ])
    })

    it("clearFaults() disarms webhook faults", async () => {
      h.sandbox.webhookFault({ mode: "drop" })
      h.sandbox.clearFaults()
      const id = await newLink()
      h.sandbox.openLink(id)
      const d = await h.sandbox.waitForDeliveries((x) => x.length === 1)
      expect(d[0].outcome).toBe("delivered")
    })
  })

  describe("sendWebhook", () => {
    it("sends one signed notification without changing the order", async () => {
      const id = await newLink()
      const record = await h.sandbox.sendWebhook({ orderId: id, status: "success", comments: "manual" })
      expect(record).toMatchObject({ manual: true, attempt: 1, maxAttempts: 1, outcome: "delivered", responseStatus: 200 })
      expect(verifyWebhook(receiver.received[0].body, SECRET).ok).toBe(true)
      expect(receiver.received[0].body.paylaterRef).toBe(h.sandbox.order(id)?.payLaterOrderId)
      expect(h.sandbox.order(id)?.status).toBe(0)
    })

    it("forged: the merchant's verification refuses it with 403", async () => {
      const record = await h.sandbox.sendWebhook({ orderId: "whatever", status: "success", forged: true })
      expect(record).toMatchObject({ outcome: "rejected", responseStatus: 403 })
      expect(record.responseBody).toContain("Invalid signature")
      expect(verifyWebhook(receiver.received[0].body, SECRET)).toMatchObject({ ok: false, reason: "signature_mismatch" })
    })

    it("body: fields merged after signing (tampering) are refused too", async () => {
      const record = await h.sandbox.sendWebhook({ orderId: "x", status: "failed", body: { status: "success" } })
      expect(record.outcome).toBe("rejected")
      expect(receiver.received[0].body.status).toBe("success")
      expect(verifyWebhook(receiver.received[0].body, SECRET)).toMatchObject({ ok: false, reason: "hash_mismatch" })
    })

    it("omits comments when none are given", async () => {
      await h.sandbox.sendWebhook({ orderId: "x", status: "pending" })
      expect("comments" in receiver.received[0].body).toBe(false)
      expect(verifyWebhook(receiver.received[0].body, SECRET).ok).toBe(true)
    })
  })

  it("a throwing predicate fails the wait, not the delivery", async () => {
    const id = await newLink()
    const waiting = h.sandbox.waitForDeliveries((d) => {
      if (d.length > 0) throw new Error("boom")
      return false
    })
    h.sandbox.openLink(id)
    await expect(waiting).rejects.toThrow("boom")
    await h.sandbox.approveLink(id)
    const d = await h.sandbox.waitForDeliveries((x) => x.length === 2)
    expect(d.every((x) => x.outcome === "delivered")).toBe(true)
  })

  it("waitForDeliveries rejects with what it saw when the condition never holds", async () => {
    await expect(h.sandbox.waitForDeliveries((x) => x.length > 5, 50)).rejects.toThrow(/not met within 50 ms/)
  })
})

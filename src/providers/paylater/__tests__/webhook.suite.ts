import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { signWebhook } from "../../../lib/paylater"
import { makeProvider, OPTIONS } from "./fake-api"
import { rawWebhookText, readWebhookBody, MAX_WEBHOOK_BYTES } from "../webhook-input"

const SESSIONS = { payses_1: { id: "payses_1", amount: "360" } }

function notification(fields: Partial<Parameters<typeof signWebhook>[0]> = {}, secret = OPTIONS.webhookSecret) {
  return signWebhook(
    { merchantId: "merchant-1", orderId: "payses_1-2", status: "success", timestamp: 1767000000, paylaterRef: "PL1", ...fields },
    secret
  )
}

const payload = (data: unknown, rawData: unknown = "") => ({
  data: data as Record<string, unknown>,
  rawData: rawData as string,
  headers: {},
})

describe("getWebhookActionAndData", () => {
  // Medusa's /hooks/payment pipeline must do nothing with a genuine notification: the plugin's own
  // subscriber settles it (src/signal-handlers/webhook.ts). Only verification happens here.
  it.each([
    ["success", PaymentActions.NOT_SUPPORTED],
    ["failed", PaymentActions.FAILED],
    ["pending", PaymentActions.PENDING],
  ] as const)("verifies a genuine %s and answers %s with no session, looking nothing up", async (status, action) => {
    const { provider } = makeProvider({}, SESSIONS)
    const lookups: string[] = []
    const sessions = (provider as unknown as { container: { paymentSessionService: { list: (f: { id: string }) => unknown } } })
      .container.paymentSessionService
    const list = sessions.list
    sessions.list = (f) => {
      lookups.push(f.id)
      return list(f)
    }
    const out = await provider.getWebhookActionAndData(payload(notification({ status, comments: "by shopper" })))
    expect(out).toEqual({ action })
    expect(lookups).toEqual([])
  })

  it("reads the raw body when Medusa passed no parsed data", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const raw = Buffer.from(JSON.stringify(notification({}, "wrong-secret")))
    const error = await provider.getWebhookActionAndData(payload({}, raw)).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.UNAUTHORIZED)
    const genuine = Buffer.from(JSON.stringify(notification()))
    expect(await provider.getWebhookActionAndData(payload({}, genuine))).toEqual({ action: PaymentActions.NOT_SUPPORTED })
  })

  it("refuses a notification signed with another secret as UNAUTHORIZED", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const error = await provider.getWebhookActionAndData(payload(notification({}, "wrong-secret"))).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.UNAUTHORIZED)
    expect(error.message).toMatch(/Invalid signature/)
    expect(error.message).not.toContain(OPTIONS.webhookSecret)
  })

  it("refuses a tampered status (txHash no longer matches)", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const forged = { ...notification({ status: "failed" }), status: "success" }
    const error = await provider.getWebhookActionAndData(payload(forged)).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.UNAUTHORIZED)
    expect(error.message).toMatch(/txHash/)
  })

  it("refuses another merchant's notification and malformed bodies as NOT_ALLOWED", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const other = await provider.getWebhookActionAndData(payload(notification({ merchantId: "merchant-2" }))).catch((e) => e)
    expect(other.type).toBe(MedusaError.Types.NOT_ALLOWED)
    const junk = await provider.getWebhookActionAndData(payload({ hello: "world" })).catch((e) => e)
    expect(junk.type).toBe(MedusaError.Types.NOT_ALLOWED)
    const empty = await provider.getWebhookActionAndData(payload({}, "not json")).catch((e) => e)
    expect(empty.type).toBe(MedusaError.Types.NOT_ALLOWED)
  })
})

describe("the raw body, in whatever form the event bus delivers it", () => {
  // Signed over text with multi-byte characters, so a wrong decoding would fail verification.
  const text = JSON.stringify(notification({ comments: "دفع — paid ✓" }))
  const bytes = Buffer.from(text, "utf8")
  const viewInto = (outer: Buffer, at: number, length: number) => new Uint8Array(outer.buffer, outer.byteOffset + at, length)
  // What a Buffer becomes through Medusa's Redis event bus (JSON).
  const overRedis = JSON.parse(JSON.stringify({ rawData: bytes })).rawData

  it.each([
    ["a string", text],
    ["a Buffer", bytes],
    ["a Uint8Array", new Uint8Array(bytes)],
    ["a Uint8Array view into a larger buffer", viewInto(Buffer.concat([Buffer.from("xx"), bytes, Buffer.from("yy")]), 2, bytes.length)],
    ['Redis\'s {type:"Buffer",data:[...]}', overRedis],
  ])("decodes %s to the exact text", (_label, raw) => {
    expect(overRedis).toEqual({ type: "Buffer", data: [...bytes] })
    expect(rawWebhookText(raw)).toBe(text)
  })

  it.each([
    ["an object that is not a serialised Buffer", { type: "Buffer", data: "not-bytes" }],
    ["byte values out of range", { type: "Buffer", data: [123, 256, 125] }],
    ["non-integer bytes", { type: "Buffer", data: [123, 1.5, 125] }],
    ["an inherited type", Object.assign(Object.create({ type: "Buffer" }), { data: [123, 125] })],
    ["a number", 42],
    ["an oversized serialised Buffer", { type: "Buffer", data: new Array(MAX_WEBHOOK_BYTES + 1).fill(32) }],
  ])("refuses %s", (_label, raw) => {
    expect(rawWebhookText(raw)).toBeNull()
    expect(readWebhookBody(payload({}, raw))).toBeUndefined()
  })

  it('verifies a genuine notification from the {type:"Buffer"} form and refuses a forged one in it', async () => {
    const { provider } = makeProvider({}, SESSIONS)
    expect(await provider.getWebhookActionAndData(payload({}, overRedis))).toEqual({ action: PaymentActions.NOT_SUPPORTED })
    const forged = Buffer.from(JSON.stringify(notification({}, "wrong-secret")))
    const error = await provider.getWebhookActionAndData(payload({}, JSON.parse(JSON.stringify(forged)))).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.UNAUTHORIZED)
  })
})

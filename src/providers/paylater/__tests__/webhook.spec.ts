import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { signWebhook } from "../../../lib/paylater"
import { VERIFY_ONLY_HEADER } from "../webhook-input"
import { makeProvider, OPTIONS } from "./fake-api"

const SESSIONS = { payses_1: { id: "payses_1", amount: "360" } }

function notification(fields: Partial<Parameters<typeof signWebhook>[0]> = {}, secret = OPTIONS.webhookSecret) {
  return signWebhook(
    { merchantId: "merchant-1", orderId: "payses_1-2", status: "success", timestamp: 1767000000, paylaterRef: "PL1", ...fields },
    secret
  )
}

const payload = (data: unknown, rawData: string | Buffer = "") => ({
  data: data as Record<string, unknown>,
  rawData,
  headers: {},
})

describe("getWebhookActionAndData", () => {
  it("maps success to authorized for the session, suffix stripped, amount in major units", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const out = await provider.getWebhookActionAndData(payload(notification()))
    expect(out).toEqual({ action: PaymentActions.AUTHORIZED, data: { session_id: "payses_1", amount: "360.00" } })
  })

  it.each([
    ["failed", PaymentActions.FAILED],
    ["pending", PaymentActions.PENDING],
  ] as const)("maps %s to %s", async (status, action) => {
    const { provider } = makeProvider({}, SESSIONS)
    const out = await provider.getWebhookActionAndData(payload(notification({ status, comments: "declined by shopper" })))
    expect(out.action).toBe(action)
    expect(out.data?.session_id).toBe("payses_1")
  })

  it("reads the raw body when Medusa passed no parsed data", async () => {
    const { provider } = makeProvider({}, SESSIONS)
    const raw = Buffer.from(JSON.stringify(notification()))
    const out = await provider.getWebhookActionAndData(payload({}, raw))
    expect(out.action).toBe(PaymentActions.AUTHORIZED)
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

  it("answers not_supported without a session for an unknown order, so nothing is processed", async () => {
    const { provider, logged } = makeProvider({}, SESSIONS)
    const out = await provider.getWebhookActionAndData(payload(notification({ orderId: "payses_unknown" })))
    expect(out).toEqual({ action: PaymentActions.NOT_SUPPORTED })
    expect(logged.some((l) => l.level === "warn" && l.message.includes("payses_unknown"))).toBe(true)
  })

  describe("verify-only (our route, answering PayLater before any database work)", () => {
    const verifyOnly = (data: unknown) => ({ ...payload(data), headers: { [VERIFY_ONLY_HEADER]: "1" } })

    it("verifies and names the session without looking it up, and answers not_supported so nothing is processed", async () => {
      const { provider } = makeProvider({}, SESSIONS)
      const lookups: string[] = []
      const sessions = (provider as unknown as { container: { paymentSessionService: { list: (f: { id: string }) => unknown } } })
        .container.paymentSessionService
      const list = sessions.list
      sessions.list = (f) => {
        lookups.push(f.id)
        return list(f)
      }
      for (const orderId of ["payses_1-2", "payses_unknown"]) {
        const out = await provider.getWebhookActionAndData(verifyOnly(notification({ orderId })))
        expect(out).toEqual({ action: PaymentActions.NOT_SUPPORTED, data: { session_id: orderId.replace(/-2$/, ""), amount: 0 } })
      }
      expect(lookups).toEqual([])
      // Without the header, the same provider looks the session up as before.
      await provider.getWebhookActionAndData(payload(notification()))
      expect(lookups).toEqual(["payses_1"])
    })

    it("still refuses forged, tampered and foreign notifications", async () => {
      const { provider } = makeProvider({}, SESSIONS)
      const forged = await provider.getWebhookActionAndData(verifyOnly(notification({}, "wrong-secret"))).catch((e) => e)
      expect(forged.type).toBe(MedusaError.Types.UNAUTHORIZED)
      const tampered = { ...notification({ status: "failed" }), status: "success" }
      expect((await provider.getWebhookActionAndData(verifyOnly(tampered)).catch((e) => e)).type).toBe(MedusaError.Types.UNAUTHORIZED)
      const other = await provider.getWebhookActionAndData(verifyOnly(notification({ merchantId: "merchant-2" }))).catch((e) => e)
      expect(other.type).toBe(MedusaError.Types.NOT_ALLOWED)
    })

    it("ignores the header unless it is exactly \"1\" and the headers' own member", async () => {
      const { provider } = makeProvider({}, SESSIONS)
      const inherited = Object.create({ [VERIFY_ONLY_HEADER]: "1" })
      for (const headers of [{ [VERIFY_ONLY_HEADER]: "true" }, { [VERIFY_ONLY_HEADER]: ["1"] }, inherited]) {
        const out = await provider.getWebhookActionAndData({ ...payload(notification()), headers })
        expect(out.action).toBe(PaymentActions.AUTHORIZED)
      }
    })
  })
})

/**
 * The provider's own status calls (Medusa's authorization from a storefront's cart completion, its
 * getPaymentStatus and retrievePayment) take the session's status-call slot, the one settlement
 * takes (ledger-port.ts StatusSlotPort): a busy slot is answered from the ledger row, with nothing
 * asked. Settlement's own authorization of the attempt it has just asked about never needs the slot.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { makeProvider as makeBareProvider, status } from "./fake-api"
import { STATUS_CALL_INTERVAL_SECONDS } from "../../../limits/status-interval"
import { ATTEMPT_CONTEXT_KEY, SIGNAL_CONTEXT_KEY } from "../../../modules/paylater-ledger/ledger-port"

const SESSION = "payses_01SLOT"
const ORDER = `${SESSION}-2`
const data = { session_id: SESSION, paylater_order_id: ORDER, amount: "350.00" }
const ctx = { idempotency_key: SESSION }

function makeProvider() {
  const made = makeBareProvider()
  void made.ledger.writeAhead({ paylater_order_id: ORDER, kind: "link", session_id: SESSION, amount: "350.00", currency_code: "qar", expires_at: null })
  return made
}

describe("the provider's status calls take the session's status-call slot", () => {
  it("asks PayLater with the slot, keyed by the session (as settlement's), for one interval", async () => {
    const { provider, fake, ledger } = makeProvider()
    fake.statusAnswers.push(status(1))
    expect((await provider.authorizePayment({ data, context: ctx })).status).toBe("pending")
    expect(fake.statusCalls).toEqual([ORDER])
    expect(ledger.statusSlotsTaken).toEqual([{ sessionId: SESSION, seconds: STATUS_CALL_INTERVAL_SECONDS }])
  })

  it.each([
    ["authorizePayment", (p: ReturnType<typeof makeProvider>["provider"]) => p.authorizePayment({ data, context: ctx })],
    ["getPaymentStatus", (p: ReturnType<typeof makeProvider>["provider"]) => p.getPaymentStatus({ data, context: ctx })],
    ["retrievePayment", (p: ReturnType<typeof makeProvider>["provider"]) => p.retrievePayment({ data, context: ctx })],
  ])("%s with a busy slot asks nothing and answers from the row", async (_name, call) => {
    const { provider, fake, ledger } = makeProvider()
    await ledger.recordStatus(ORDER, { code: 1, signal: "poll", paylater_ref: "PL123" })
    ledger.busyStatusSlots.add(SESSION)
    const out = (await call(provider)) as { status?: string; data?: Record<string, unknown> }
    expect(fake.statusCalls).toEqual([])
    if (out.status) expect(out.status).toBe("pending")
    expect(out.data).toMatchObject({ paylater_order_id: ORDER, paylater_ref: "PL123" })
  })

  it("answers a busy slot with the row's last word: a decline stays a decline, no answer yet is pending", async () => {
    const { provider, fake, ledger } = makeProvider()
    ledger.busyStatusSlots.add(SESSION)
    expect((await provider.authorizePayment({ data, context: ctx })).status).toBe("pending")
    await ledger.recordStatus(ORDER, { code: 3, signal: "poll" })
    expect((await provider.getPaymentStatus({ data, context: ctx })).status).toBe("error")
    expect(fake.statusCalls).toEqual([])
  })

  it("answers a paid row as paid with or without the slot: PayLater's success is final", async () => {
    const { provider, fake, ledger } = makeProvider()
    await ledger.recordStatus(ORDER, { code: 2, signal: "webhook", paylater_ref: "PL9" })
    expect((await provider.authorizePayment({ data, context: ctx })).status).toBe("captured")
    ledger.busyStatusSlots.add(SESSION)
    expect((await provider.getPaymentStatus({ data, context: ctx })).status).toBe("captured")
    expect(fake.statusCalls).toEqual([])
    expect(ledger.statusSlotsTaken).toEqual([])
  })

  it("answers settlement's authorization of the attempt it just asked about from the row, without the slot settlement holds", async () => {
    const { provider, fake, ledger } = makeProvider()
    // Settlement took the slot, asked, and recorded the answer; then Medusa authorizes the session.
    ledger.busyStatusSlots.add(SESSION)
    await ledger.recordStatus(ORDER, { code: 1, signal: "return" })
    const context = { ...ctx, [ATTEMPT_CONTEXT_KEY]: ORDER, [SIGNAL_CONTEXT_KEY]: "return" } as never
    expect((await provider.authorizePayment({ data, context })).status).toBe("pending")
    await ledger.recordStatus(ORDER, { code: 2, signal: "return" })
    expect((await provider.authorizePayment({ data, context })).status).toBe("captured")
    expect(fake.statusCalls).toEqual([])
  })

  it("thirty completions in one interval cost one status call", async () => {
    const { provider, fake, ledger } = makeProvider()
    // The memory ledger's slots are free until made busy: here the first taker makes it busy, as the store does.
    ledger.takeStatusSlot = async (sessionId) => {
      if (ledger.busyStatusSlots.has(sessionId)) return false
      ledger.busyStatusSlots.add(sessionId)
      return true
    }
    const answers = await Promise.all(Array.from({ length: 30 }, () => provider.authorizePayment({ data, context: ctx })))
    expect(fake.statusCalls).toHaveLength(1)
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set(["pending"]))
  })

  it("decides a new amount on PayLater's own answer: waits for the slot, asks, then replaces the unpaid link", async () => {
    const { provider, fake, ledger } = makeBareProvider()
    const { data: started } = await provider.initiatePayment({ amount: 350, currency_code: "qar", data: { session_id: SESSION }, context: ctx })
    ledger.busyStatusSlots.add(SESSION)
    setTimeout(() => ledger.busyStatusSlots.delete(SESSION), 600)
    const t0 = Date.now()
    await provider.updatePayment({ amount: 400, currency_code: "qar", data: started! })
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500)
    expect(fake.statusCalls).toEqual([SESSION])
    expect(fake.links).toHaveLength(2)
  })

  it("refuses a new amount, asking nothing, when the slot stays busy for a whole interval", async () => {
    const { provider, fake, ledger } = makeBareProvider()
    const { data: started } = await provider.initiatePayment({ amount: 350, currency_code: "qar", data: { session_id: SESSION }, context: ctx })
    ledger.busyStatusSlots.add(SESSION)
    const error = await provider.updatePayment({ amount: 400, currency_code: "qar", data: started! }).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.message).toMatch(/try again in a few seconds/)
    expect(fake.statusCalls).toEqual([])
    expect(fake.links).toHaveLength(1)
  }, 15_000)
})

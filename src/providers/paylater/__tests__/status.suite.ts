import { MedusaError } from "@medusajs/framework/utils"
import { PayLaterError } from "../../../lib/paylater"
import { makeProvider as makeBareProvider, status } from "./fake-api"

const SESSION = "payses_01ABC"
const data = { session_id: SESSION, paylater_order_id: `${SESSION}-2`, amount: "350.00", expires_at: "2999-01-01T00:00:00.000Z" }
const ctx = { idempotency_key: SESSION }
const STATUS_COPIES = ["paylater_status", "paylater_status_code", "paylater_status_message", "paylater_status_checked_at", "paylater_failure_reason"]
/** Session data keeps no copy of PayLater's status: the ledger row is the one record of it. */
function expectNoStatusCopies(out: { data?: Record<string, unknown> }) {
  const written = JSON.parse(JSON.stringify(out.data ?? {}))
  for (const key of STATUS_COPIES) expect(written).not.toHaveProperty(key)
}

/** A provider whose ledger holds the session's second attempt (written before PayLater was called). */
function makeProvider(...args: Parameters<typeof makeBareProvider>) {
  const made = makeBareProvider(...args)
  void made.ledger.writeAhead({ paylater_order_id: `${SESSION}-2`, kind: "link", session_id: SESSION, amount: "350.00", currency_code: "qar", expires_at: null })
  return made
}

describe("authorizePayment / getPaymentStatus", () => {
  it("asks PayLater every time, under the attempt's own order id", async () => {
    const { provider, fake } = makeProvider()
    await provider.authorizePayment({ data, context: ctx })
    await provider.authorizePayment({ data, context: ctx })
    expect(fake.statusCalls).toEqual([`${SESSION}-2`, `${SESSION}-2`])
  })

  it("reports success as captured and keeps PayLater's reference", async () => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(status(2))
    const out = await provider.authorizePayment({ data, context: ctx })
    expect(out.status).toBe("captured")
    expect(out.data).toMatchObject({ ...data, paylater_ref: "PL1744792493935483" })
    expectNoStatusCopies(out)
  })

  it.each([0, 1] as const)("reports status %s as pending", async (code) => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(status(code))
    const out = await provider.getPaymentStatus({ data, context: ctx })
    expect(out.status).toBe("pending")
    expectNoStatusCopies(out)
  })

  it("reports failed as error with the reason kept", async () => {
    const { provider, fake, ledger } = makeProvider()
    fake.statusAnswers.push(status(3))
    const out = await provider.authorizePayment({ data: { ...data, paylater_status: "pending", paylater_failure_reason: "expired" }, context: ctx })
    expect(out.status).toBe("error")
    expect(ledger.rows[0]).toMatchObject({ state: "declined", last_status_code: 3 })
    // Copies an older version wrote are removed, not left to contradict the row.
    expectNoStatusCopies(out)
  })

  it("reads a failure after the attempt's recorded expiry as expired", async () => {
    const { provider, fake, ledger } = makeBareProvider()
    await ledger.writeAhead({ paylater_order_id: `${SESSION}-2`, kind: "link", session_id: SESSION, amount: "350.00", currency_code: "QAR", expires_at: new Date("2000-01-01T00:00:00.000Z") })
    fake.statusAnswers.push(status(3))
    const out = await provider.authorizePayment({ data, context: ctx })
    expect(ledger.rows[0]).toMatchObject({ state: "expired", last_status_code: 3, last_status_signal: "checkout" })
    expectNoStatusCopies(out)
  })

  it("never takes the expiry from session data: a storefront's expires_at does not make a decline an expiry", async () => {
    const { provider, fake, ledger } = makeBareProvider()
    await ledger.writeAhead({ paylater_order_id: `${SESSION}-2`, kind: "link", session_id: SESSION, amount: "350.00", currency_code: "QAR", expires_at: new Date("2999-01-01T00:00:00.000Z") })
    fake.statusAnswers.push(status(3))
    await provider.authorizePayment({ data: { ...data, expires_at: "2000-01-01T00:00:00.000Z" }, context: ctx })
    expect(ledger.rows[0]).toMatchObject({ state: "declined" })
  })

  it("asks about the ledger's current attempt, whatever order id the session data names", async () => {
    const { provider, fake, ledger } = makeProvider()
    await ledger.writeAhead({ paylater_order_id: `${SESSION}-2`, kind: "link", session_id: SESSION, amount: "350.00", currency_code: "QAR", expires_at: null })
    await provider.authorizePayment({ data: { ...data, paylater_order_id: `${SESSION}-7` }, context: { ...ctx, paylater_signal: "webhook" } as never })
    expect(fake.statusCalls).toEqual([`${SESSION}-2`])
    expect(ledger.rows[0]).toMatchObject({ last_status_signal: "webhook" })
  })

  it("asks about the session's own attempt from the ledger, whatever order id its data names", async () => {
    const { provider, fake } = makeProvider()
    await provider.authorizePayment({ data: { ...data, paylater_order_id: "payses_SOMEONE_ELSE" }, context: ctx })
    expect(fake.statusCalls).toEqual([`${SESSION}-2`])
  })

  it("refuses to check a session the ledger has no attempt for, whatever its data says", async () => {
    const { provider, fake } = makeBareProvider()
    const error = await provider.authorizePayment({ data, context: ctx }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(fake.statusCalls).toHaveLength(0)
  })

  it("turns an unreachable PayLater into a try-again error instead of a status", async () => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(new PayLaterError("TIMEOUT", "slow"))
    const error = await provider.authorizePayment({ data, context: ctx }).catch((e) => e)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toMatch(/try again/i)
  })
})

describe("capture, cancel, delete", () => {
  it("calls nothing remote", async () => {
    const { provider, fake } = makeProvider()
    expect(await provider.capturePayment({ data })).toEqual({ data })
    expect(await provider.cancelPayment({ data })).toEqual({ data })
    expect(await provider.deletePayment({ data })).toEqual({ data })
    expect(fake.statusCalls.length + fake.links.length + fake.refunds.length).toBe(0)
  })

  it("refuses to cancel a payment PayLater holds as paid (PayLater has no void): Medusa's record stays live", async () => {
    const { provider, fake } = makeProvider()
    // The data's claim decides nothing: the row is not paid yet, so a cancel goes through.
    expect(await provider.cancelPayment({ data: { ...data, paylater_status: "success" } })).toEqual({ data: { ...data, paylater_status: "success" } })
    fake.statusAnswers.push(status(2))
    await provider.authorizePayment({ data, context: ctx })
    // Medusa's payment module names the payment it cancels.
    const error = await provider.cancelPayment({ data, context: { idempotency_key: "pay_1" } }).catch((e) => e)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toMatch(/has no cancel: it goes back to the shopper only by a refund/)
    expect(fake.statusCalls.length + fake.refunds.length).toBe(1)
  })

  it("lets through the payment module's clean-up of an authorization that wrote no payment (it rethrows the authorization's own error)", async () => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(status(2))
    await provider.authorizePayment({ data, context: ctx })
    expect(await provider.cancelPayment({ data, context: {} })).toEqual({ data })
  })

  it("lets the cancel through once a refund of any of it is written (it may be paid out: money given back, the money plan's to cancel)", async () => {
    const { provider, fake, ledger } = makeProvider()
    fake.statusAnswers.push(status(2))
    await provider.authorizePayment({ data, context: ctx })
    await ledger.beginRefund({ paylater_order_id: data.paylater_order_id, amount: "10.00", captured_amount: "350.00", stale_after_ms: 60_000 })
    // A refund written before it is sent may have been paid out: the money may be the shopper's again.
    expect(await provider.cancelPayment({ data, context: { idempotency_key: "pay_1" } })).toEqual({ data })
  })
})

describe("money PayLater gave back, still an authorized payment in Medusa", () => {
  async function paidThenRefunded(amount: string) {
    const made = makeProvider()
    made.fake.statusAnswers.push(status(2))
    await made.provider.authorizePayment({ data, context: ctx })
    const refund = await made.ledger.beginRefund({ paylater_order_id: data.paylater_order_id, amount, captured_amount: "350.00", stale_after_ms: 60_000 })
    await made.ledger.settleRefund(refund.attempt_id, { outcome: "succeeded" })
    return made
  }

  it("is never captured: the order page's Capture is refused with the reason, in full or in part", async () => {
    for (const amount of ["350.00", "10.00"]) {
      const { provider } = await paidThenRefunded(amount)
      const error = await provider.capturePayment({ data }).catch((e) => e)
      expect(error).toBeInstanceOf(MedusaError)
      expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
      expect(error.message).toMatch(/refunded this payment/)
    }
  })

  it("is canceled (the money plan's cancel), in full or in part, without a warning", async () => {
    for (const amount of ["350.00", "10.00"]) {
      const { provider, logged } = await paidThenRefunded(amount)
      expect(await provider.cancelPayment({ data, context: { idempotency_key: "pay_1" } })).toEqual({ data })
      expect(logged.some((l) => l.level === "warn")).toBe(false)
    }
  })

  it("a paid payment nothing was refunded of is captured as before", async () => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(status(2))
    await provider.authorizePayment({ data, context: ctx })
    expect(await provider.capturePayment({ data })).toEqual({ data })
  })
})

describe("the authorize output names the attempt PayLater was asked about", () => {
  it("replaces a stale order id in the data with the session's current attempt (what refunds key on)", async () => {
    const { provider, fake } = makeProvider()
    fake.statusAnswers.push(status(2))
    const out = await provider.authorizePayment({ data: { ...data, paylater_order_id: SESSION }, context: ctx })
    expect(fake.statusCalls).toEqual([`${SESSION}-2`])
    expect(out.data).toMatchObject({ paylater_order_id: `${SESSION}-2` })
  })
})

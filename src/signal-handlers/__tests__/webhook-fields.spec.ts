import { signWebhook, verifyWebhook } from "../../lib/paylater"
import { queuedFields, readQueuedFields } from "../webhook-fields"

const SECRET = "whsec-test"

function verified(fields: Partial<Parameters<typeof signWebhook>[0]> = {}) {
  const body = signWebhook(
    { merchantId: "m-1", orderId: "payses_01ABC", status: "success", timestamp: 1767000000123, paylaterRef: "PL9", ...fields },
    SECRET
  )
  const verdict = verifyWebhook(JSON.parse(JSON.stringify(body)), SECRET, { expectedMerchantId: "m-1" })
  if (!verdict.ok) throw new Error(verdict.message)
  return verdict.webhook
}

// What an event bus hands the subscriber: a JSON copy (Redis) of what the route queued.
const throughBus = (data: unknown) => JSON.parse(JSON.stringify(data))

describe("queued webhook fields", () => {
  it("carries the verified fields through a JSON copy unchanged", () => {
    const queued = queuedFields(verified(), "pp_paylater_paylater", "2026-11-24T03:00:00.000Z")
    expect(readQueuedFields(throughBus(queued))).toEqual({
      registration_id: "pp_paylater_paylater",
      received_at: "2026-11-24T03:00:00.000Z",
      order_id: "payses_01ABC",
      status: "success",
      paylater_ref: "PL9",
      merchant_id: "m-1",
      timestamp: "1767000000123",
    })
  })

  it("queues identifiers sent as JSON numbers as the decimal text that was signed", () => {
    const queued = queuedFields(verified({ merchantId: "m-1", orderId: 123456, paylaterRef: 77 }), "r", "t")
    expect(readQueuedFields(throughBus(queued))).toMatchObject({ order_id: "123456", paylater_ref: "77" })
  })

  it("keeps an absent PayLater reference as null", () => {
    const queued = queuedFields(verified({ paylaterRef: undefined }), "r", "t")
    expect(readQueuedFields(throughBus(queued))?.paylater_ref).toBeNull()
  })

  it("reads own members only: fields under __proto__ or constructor are not taken", () => {
    const good = queuedFields(verified(), "r", "t")
    const { order_id, status, ...rest } = good
    const hidden = JSON.parse(
      JSON.stringify(rest).replace(/}$/, `,"__proto__":{"order_id":"${order_id}","status":"${status}"},"constructor":{"order_id":"x"}}`)
    )
    expect(Object.prototype.hasOwnProperty.call(hidden, "__proto__")).toBe(true)
    expect(readQueuedFields(hidden)).toBeNull()
    // Extra members, whatever their names, are not copied into what the settlement gets.
    const extra = JSON.parse(JSON.stringify(good).replace(/}$/, `,"__proto__":{"polluted":true},"raw_body":"{}"}`))
    const read = readQueuedFields(extra)
    expect(read).toEqual(good)
    expect(Object.keys(read!).sort()).toEqual(Object.keys(good).sort())
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ["no data", null],
    ["an array", []],
    ["a raw body instead of the verified fields", { registration_id: "r", raw_body: "{}", received_at: "t" }],
    ["an unknown status", { ...queuedFields(verified(), "r", "t"), status: "refunded" }],
    ["a number where text was queued", { ...queuedFields(verified(), "r", "t"), order_id: 5 }],
    ["an empty order id", { ...queuedFields(verified(), "r", "t"), order_id: "" }],
    ["an object as PayLater reference", { ...queuedFields(verified(), "r", "t"), paylater_ref: {} }],
    ["a missing merchant", { ...queuedFields(verified(), "r", "t"), merchant_id: undefined }],
  ])("refuses %s", (_label, data) => {
    expect(readQueuedFields(throughBus(data))).toBeNull()
  })
})

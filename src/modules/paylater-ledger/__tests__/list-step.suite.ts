import { applyListStep } from "../list-step"

function fakeLedger() {
  const calls: string[] = []
  return {
    calls,
    ledger: {
      closeAttentionOfAttempt: async (paylaterOrderId: string, note: string) => void calls.push(`close ${paylaterOrderId}: ${note}`),
      resolveAttention: async (id: string, how: { resolution: string; note: string }) => void calls.push(`resolve ${id} ${how.resolution}: ${how.note}`),
    } as never,
  }
}

describe("applyListStep: the money plan's list step on Settings → PayLater's list", () => {
  it("close_held closes every open item of the attempt with the step's note (no item needed)", async () => {
    const { ledger, calls } = fakeLedger()
    await applyListStep(ledger, { paylater_order_id: "payses_1" }, { step: "close_held", note: "Order order_1 holds this payment. Nothing refunded." })
    expect(calls).toEqual(["close payses_1: Order order_1 holds this payment. Nothing refunded."])
  })

  it("close_refunded resolves the open item it was given as refunded, naming its amount", async () => {
    const { ledger, calls } = fakeLedger()
    await applyListStep(ledger, { paylater_order_id: "payses_1", id: "att_1", amount: "360.00", status: "open" }, { step: "close_refunded", note: "x" })
    expect(calls).toEqual(["resolve att_1 refunded: Refunded 360.00 QAR in full at PayLater."])
  })

  it("close_refunded leaves a closed item, or none named, as it is", async () => {
    const { ledger, calls } = fakeLedger()
    await applyListStep(ledger, { paylater_order_id: "payses_1", id: "att_1", amount: "360.00", status: "resolved" }, { step: "close_refunded", note: "x" })
    await applyListStep(ledger, { paylater_order_id: "payses_1" }, { step: "close_refunded", note: "x" })
    expect(calls).toEqual([])
  })

  it("the other steps leave the list as it is", async () => {
    const { ledger, calls } = fakeLedger()
    const item = { paylater_order_id: "payses_1", id: "att_1", amount: "360.00", status: "open" as const }
    await applyListStep(ledger, item, { step: "refundable" })
    await applyListStep(ledger, item, { step: "wait", note: "being placed" })
    await applyListStep(ledger, item, { step: "none", note: "not paid" })
    expect(calls).toEqual([])
  })
})

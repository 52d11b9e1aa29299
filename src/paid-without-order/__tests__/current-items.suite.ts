import { MathBN } from "@medusajs/framework/utils"
import type { AttemptRecord } from "../../modules/paylater-ledger/ledger-port"
import type { AttentionRecord } from "../../modules/paylater-ledger/types"
import { decideOwner, OWNER_SETTLES_WITHIN_MS, type CollectionMoney } from "../../modules/paylater-ledger/whose-money"
import { currentItemsWith, type ItemPorts } from "../current-items"
import { applyListStep } from "../../modules/paylater-ledger/list-step"

/**
 * Settings → PayLater's list as a view of the ledger, behind ports: an in-memory ledger, Medusa's
 * records of each collection as plain facts, and the real owner decision (whose-money.ts).
 */
const NOW = new Date("2026-11-27T01:00:00Z")

const row = (id: string, over: Partial<AttemptRecord> = {}): AttemptRecord =>
  ({ paylater_order_id: id, session_id: id, state: "paid", order_id: null, payment_id: null, superseded_by: null, ...over }) as AttemptRecord

const item = (id: string, over: Partial<AttentionRecord> = {}): AttentionRecord =>
  ({ id: `platt_${id}`, kind: "paid_without_order", status: "open", amount: "360.00", paylater_order_id: id, session_id: id, ...over }) as AttentionRecord

const placed = (sessionId: string, held: boolean, otherMethod = false, msAgo = 60_000): CollectionMoney => ({
  order: { id: "order_1", created_at: new Date(NOW.getTime() - msAgo) },
  payments: [
    { id: `pay_${sessionId}`, session_id: sessionId, paylater: true, attempt: sessionId, canceled: false, created_at: new Date(NOW.getTime() - msAgo - 1000), held },
    ...(otherMethod ? [{ id: "pay_sys", session_id: "ps_sys", paylater: false, attempt: null, canceled: false, created_at: NOW, held: false }] : []),
  ],
})

function world(rows: AttemptRecord[], money: Record<string, CollectionMoney | null>, refunded: Record<string, string> = {}) {
  const items = new Map<string, AttentionRecord>()
  const writes: string[] = []
  const memoryList = {
    closeAttentionOfAttempt: async (id: string, note: string) => {
      writes.push(`closeHeld ${id}`)
      let closed = 0
      for (const i of items.values()) {
        if (i.paylater_order_id === id && i.status === "open") {
          items.set(i.id, { ...i, status: "resolved", resolution: "resolved", resolution_note: note } as AttentionRecord)
          closed++
        }
      }
      return closed
    },
    resolveAttention: async (itemId: string, input: { resolution: string; note?: string | null }) => {
      writes.push(`resolveRefunded ${itemId}`)
      const closed = { ...items.get(itemId)!, status: "resolved", resolution: input.resolution, resolution_note: input.note } as AttentionRecord
      items.set(itemId, closed)
      return closed
    },
  }
  const ports: ItemPorts = {
    rowsOf: async (ids) => rows.filter((r) => ids.includes(r.paylater_order_id)),
    // The facts as money-plan/facts.ts reads them: the real owner decision, the refund guard's sum.
    factsOf: async (r) => ({
      owner: decideOwner(r, money[r.paylater_order_id] ?? null, NOW),
      given_back: MathBN.gt(refunded[r.paylater_order_id] ?? "0", 0),
      refunded_in_full: MathBN.gte(refunded[r.paylater_order_id] ?? "0", "360.00"),
      medusa_payment: null,
      medusa_session: null,
    }),
    // The real executor's list side, on an in-memory list.
    applyListStep: (item, step) => applyListStep(memoryList, item, step),
    reread: async (itemId) => items.get(itemId),
  }
  const list = (...listed: AttentionRecord[]) => {
    for (const i of listed) items.set(i.id, i)
    return listed
  }
  return { ports, writes, list }
}

describe("the attention list as a view of the ledger", () => {
  it("keeps money no order holds on the list, with whose money it is", async () => {
    const w = world([row("ps_1")], { ps_1: null })
    const [current] = await currentItemsWith(w.ports, w.list(item("ps_1")))
    expect(current).toMatchObject({ item: { status: "open" }, owner: { owner: "no_order" } })
    expect(w.writes).toEqual([])
  })

  it("an order placed with another method makes the PayLater money extra: it stays listed, never closed unrefunded", async () => {
    const w = world([row("ps_1")], { ps_1: placed("ps_other", false, true) })
    const [current] = await currentItemsWith(w.ports, w.list(item("ps_1")))
    expect(current).toMatchObject({ item: { status: "open" }, owner: { owner: "extra" } })
    expect(w.writes).toEqual([])
  })

  it("an order that came to hold the payment closes the item with the order's id, nothing refunded", async () => {
    const w = world([row("ps_1")], { ps_1: placed("ps_1", true) })
    const [current] = await currentItemsWith(w.ports, w.list(item("ps_1")))
    expect(current.owner).toMatchObject({ owner: "this_order", order_id: "order_1" })
    expect(current.item).toMatchObject({ status: "resolved", resolution: "resolved" })
    expect(current.item.resolution_note).toContain("order_1")
    expect(current.item.resolution_note).toContain("Nothing refunded")
    expect(w.writes).toEqual(["closeHeld ps_1"])
  })

  it("a recorded owner is final: closed even though Medusa's records now show nothing", async () => {
    const w = world([row("ps_1", { order_id: "order_9", payment_id: "pay_9" })], { ps_1: null })
    const [current] = await currentItemsWith(w.ports, w.list(item("ps_1")))
    expect(current).toMatchObject({ item: { status: "resolved" }, owner: { owner: "this_order", order_id: "order_9", recorded: true } })
  })

  it("refunded in full elsewhere closes as refunded; a partial refund keeps it open", async () => {
    const full = world([row("ps_1")], { ps_1: null }, { ps_1: "360.00" })
    expect((await currentItemsWith(full.ports, full.list(item("ps_1"))))[0].item).toMatchObject({
      status: "resolved",
      resolution: "refunded",
      resolution_note: "Refunded 360.00 QAR in full at PayLater.",
    })
    const partial = world([row("ps_1")], { ps_1: null }, { ps_1: "359.99" })
    expect((await currentItemsWith(partial.ports, partial.list(item("ps_1"))))[0].item).toMatchObject({ status: "open" })
    expect(partial.writes).toEqual([])
  })

  it("while the owner cannot be told yet the item stays, and is closed once the bound has passed", async () => {
    const young = world([row("ps_1")], { ps_1: placed("ps_1", false, false, 10_000) })
    expect((await currentItemsWith(young.ports, young.list(item("ps_1"))))[0]).toMatchObject({ item: { status: "open" }, owner: { owner: "cannot_tell" } })
    const old = world([row("ps_1")], { ps_1: placed("ps_1", false, false, OWNER_SETTLES_WITHIN_MS + 1) })
    expect((await currentItemsWith(old.ports, old.list(item("ps_1"))))[0]).toMatchObject({ item: { status: "resolved" }, owner: { owner: "this_order" } })
  })

  it("leaves alone resolved items, items of other kinds, and items whose row is gone", async () => {
    const w = world([row("ps_1"), row("ps_2")], { ps_1: placed("ps_1", true), ps_2: placed("ps_2", true) })
    const listed = w.list(
      item("ps_1", { status: "resolved" }),
      item("ps_2", { kind: "mismatch" }),
      item("ps_3")
    )
    const current = await currentItemsWith(w.ports, listed)
    expect(current.map((c) => [c.item.status, c.owner])).toEqual([
      ["resolved", null],
      ["open", null],
      ["open", null],
    ])
    expect(w.writes).toEqual([])
  })
})

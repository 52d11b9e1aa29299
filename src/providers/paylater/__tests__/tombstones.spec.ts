import { recordDeletedSession, tombstonesOf } from "../tombstones"

const NOW = new Date("2026-05-01T12:00:00.000Z")

function moduleContainer(opts: { sessionRow?: Record<string, unknown> | null; failWrites?: boolean } = {}) {
  const collections: Record<string, { id: string; metadata: Record<string, unknown> | null }> = {
    pay_col_1: { id: "pay_col_1", metadata: { kept: true } },
  }
  const row =
    opts.sessionRow === undefined
      ? { id: "payses_1", provider_id: "pp_paylater_paylater", payment_collection_id: "pay_col_1", amount: 360, raw_amount: { value: "360" }, created_at: "2026-05-01T11:00:00.000Z" }
      : opts.sessionRow
  return {
    collections,
    container: {
      paymentSessionService: { list: async () => (row ? [row] : []) },
      paymentCollectionService: {
        list: async (f: { id: string }) => (collections[f.id] ? [{ ...collections[f.id] }] : []),
        update: async (d: { id: string; metadata: Record<string, unknown> }) => {
          if (!opts.failWrites) collections[d.id].metadata = d.metadata
        },
      },
    } as Record<string, unknown>,
  }
}

const logs = () => {
  const lines: Array<[string, string]> = []
  const logger = Object.fromEntries(["info", "warn", "error", "debug"].map((l) => [l, (m: string) => lines.push([l, m])])) as any
  return { lines, logger }
}

const data = { session_id: "payses_1", paylater_order_id: "payses_1-2", amount: "360.00", expires_at: "2026-05-01T12:00:00.000Z" }

describe("recordDeletedSession", () => {
  it("writes a tombstone on the payment collection and keeps its other metadata", async () => {
    const { container, collections } = moduleContainer()
    const { lines, logger } = logs()
    await recordDeletedSession(container, data, logger, NOW)
    expect(collections.pay_col_1.metadata!.kept).toBe(true)
    expect(tombstonesOf(collections.pay_col_1.metadata)).toEqual([
      {
        session_id: "payses_1",
        provider_id: "pp_paylater_paylater",
        paylater_order_id: "payses_1-2",
        amount: "360.00",
        expires_at: "2026-05-01T12:00:00.000Z",
        created_at: "2026-05-01T11:00:00.000Z",
        deleted_at: NOW.toISOString(),
      },
    ])
    expect(lines).toEqual([])
  })

  it.each([
    ["never reached PayLater", { session_id: "payses_1" }],
    ["PayLater already said failed", { ...data, paylater_status_code: 3 as const }],
  ])("writes nothing when the session %s", async (_label, d) => {
    const { container, collections } = moduleContainer()
    await recordDeletedSession(container, d, logs().logger, NOW)
    expect(collections.pay_col_1.metadata).toEqual({ kept: true })
  })

  it("never throws; an unrecorded session is logged as an error an operator can act on", async () => {
    const { container } = moduleContainer({ failWrites: true })
    const { lines, logger } = logs()
    await expect(recordDeletedSession(container, data, logger, NOW)).resolves.toBeUndefined()
    expect(lines).toHaveLength(1)
    expect(lines[0][0]).toBe("error")
    expect(lines[0][1]).toMatch(/payses_1-2.*360\.00 QAR.*refund/)
  })
})

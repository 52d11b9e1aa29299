/**
 * Due work is not starved by older items (issue 42, item 4): more open items than one run's page
 * (held for a person, stopped after PayLater kept refusing, waiting far in the future) are older
 * than a real sold-out payment. The automatic refund still refunds the due one, and the recovery
 * job's re-decision still closes the newest item once it was refunded at PayLater.
 */
import { useSeededStore } from "../../helpers/seeded-store"
import { PAYLATER_LEDGER_MODULE, type PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger"
import type { AttentionRecord } from "../../../src/modules/paylater-ledger/types"
import { runPaidWithoutOrderRefunds, sendRefund } from "../../../src/paid-without-order/auto-refund"
import { redecideOpenItems } from "../../../src/paid-without-order/current-items"
import { planColumns, type AutoRefund } from "../../../src/money-plan/refund-plan"
import type { SandboxHandle } from "../../helpers/sandbox"
import type { SuiteOptions } from "../../helpers/shared-app"
import { eventually } from "../paylater-link/ledger"
import { payThenSellOut } from "../paylater-paid-without-order/sold-out"
import { createStockedVariant, type StockedVariant } from "../paylater-paid-without-order/stock"

// The app and the sandbox: fast-timeout-app.spec.ts (a lost answer costs 1.5 s, not 15; tokens
// outlive the sandbox clock's jump past the refund window).
const MINUTE = 60_000
/** One run reads 200 items: more than that wait ahead of the due one. */
const OLDER_ITEMS = 240

export function dueWorkNotStarved({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let stocked: StockedVariant

  beforeAll(async () => {
    stocked = await createStockedVariant(getContainer(), seed, 350)
  })

  beforeEach(async () => {
    paylater().setWebhookUrl(null)
    await stocked.setStock(1)
  })

  const ledger = () => getContainer().resolve(PAYLATER_LEDGER_MODULE) as PayLaterLedgerModuleService
  const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE)

  /** Open items about money no order holds that the automatic refund must not act on now. */
  async function olderItemsNotDue(): Promise<void> {
    const far = new Date(Date.now() + 30 * 24 * 60 * MINUTE).toISOString()
    const plans: AutoRefund[] = [
      { state: "held", tries: 0, next_attempt_at: null, last_error: null },
      { state: "stopped", tries: 6, next_attempt_at: null, last_error: "PayLater refused the refund" },
      { state: "held", tries: 0, next_attempt_at: null, last_error: "its registration is no longer configured" },
      { state: "scheduled", tries: 3, next_attempt_at: far, last_error: "too early" },
    ]
    // One insert: as flagForAttention writes them (its decided_at is the time they were listed).
    const listedAt = new Date(Date.now() - 60 * MINUTE)
    await ledger().createPayLaterAttentions(
      Array.from({ length: OLDER_ITEMS }, (_, i) => ({
        kind: "paid_without_order",
        status: "open",
        dedupe_key: `paid_without_order:older-${i}`,
        summary: `An older item ${i}`,
        amount: "10.00",
        paylater_order_id: `older-${i}`,
        session_id: `payses_older_${i}`,
        ...planColumns(plans[i % plans.length]),
        decided_at: listedAt,
      }))
    )
  }

  async function listed(sessionId: string): Promise<AttentionRecord> {
    const [item] = await eventually(
      async () =>
        (await ledger().listPayLaterAttentions({ kind: "paid_without_order", session_id: sessionId, status: "open" })) as unknown as AttentionRecord[],
      (items) => items.length > 0
    )
    return item
  }

  // One test: each sold-out payment costs a checkout, and the older items are written once.
  it("refunds the due payment and re-decides the newest item although more than a page of older items are open", async () => {
    await olderItemsNotDue()
    const open = await ledger().listPayLaterAttentions({ status: "open" }, { take: 1000 })
    expect(open).toHaveLength(OLDER_ITEMS)

    // The automatic refund: the due payment is the newest open item.
    const first = await payThenSellOut(api, store, seed, stocked)
    const due = await listed(first.sessionId)
    paylater().advanceClock(12 * MINUTE)
    const results = await runPaidWithoutOrderRefunds(getContainer(), { now: later(12) })
    expect(results).toEqual([{ id: due.id, outcome: "refunded" }])
    expect(paylater().order(first.sessionId)!.refunds).toEqual([expect.objectContaining({ amount: "360.00", full: true })])

    // The re-decision: the newest item, refunded in full at PayLater by a road that does not close
    // it (a direct refund), is closed within two runs although 240 older items stay open.
    await stocked.setStock(1)
    const second = await payThenSellOut(api, store, seed, stocked)
    const newest = await listed(second.sessionId)
    paylater().advanceClock(12 * MINUTE)
    await sendRefund(getContainer(), ledger(), newest)
    const closed = (await redecideOpenItems(getContainer())) + (await redecideOpenItems(getContainer()))
    expect(closed).toBe(1)
    const [after] = (await ledger().listPayLaterAttentions({ id: newest.id })) as unknown as AttentionRecord[]
    expect(after).toMatchObject({ status: "resolved", resolution: "refunded" })
    expect(await ledger().listPayLaterAttentions({ status: "open" }, { take: 1000 })).toHaveLength(OLDER_ITEMS)
  })
}

import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { planMoney, type ListStep, type MoneyFacts } from "../modules/paylater-ledger/money-plan"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import type { Owner } from "../modules/paylater-ledger/whose-money"
import { moneyFactsOf } from "../money-plan/facts"
import { applyListStep } from "../modules/paylater-ledger/list-step"

/** Items about PayLater money no order holds: the ones the owner decision can close. */
const MONEY_KINDS = new Set(["paid_without_order", "orphaned"])

export interface CurrentItem {
  item: AttentionRecord
  /** Whose money the item's payment is now; null for items about no single paid attempt. */
  owner: Owner | null
}

/** What the view reads and writes; the app binds it to the ledger and Medusa's records. */
export interface ItemPorts {
  rowsOf(paylaterOrderIds: string[]): Promise<AttemptRecord[]>
  /** The money plan's facts of the attempt, read now (money-plan/facts.ts). */
  factsOf(row: AttemptRecord): Promise<MoneyFacts>
  /** The plan's list step applied (money-plan/apply.ts applyListStep, the executor's list side). */
  applyListStep(item: AttentionRecord & { paylater_order_id: string }, step: ListStep): Promise<void>
  reread(itemId: string): Promise<AttentionRecord | undefined>
}

function itemPortsOf(container: MedusaContainer): ItemPorts | null {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  return {
    rowsOf: async (ids) => (await ledger.listPayLaterAttempts({ paylater_order_id: ids })) as unknown as AttemptRecord[],
    factsOf: (row) => moneyFactsOf(container, ledger, row, new Date()),
    applyListStep: (item, step) => applyListStep(ledger, item, step),
    reread: async (itemId) => ((await ledger.listPayLaterAttentions({ id: itemId }, { take: 1 })) as unknown as AttentionRecord[])[0],
  }
}

/**
 * Settings → PayLater's list as a view of the ledger: an item about money without an order stays
 * open exactly while its attempt is paid, held by no order, not refunded in full and not resolved by
 * a person. Each open one is decided again now by the money plan's list step (planMoney): one an
 * order came to hold closes with that note, one refunded in full (e.g. from the order page) closes
 * as refunded. Nothing shown or offered comes from facts read when the item was first listed.
 */
export async function currentItems(container: MedusaContainer, items: AttentionRecord[]): Promise<CurrentItem[]> {
  const ports = itemPortsOf(container)
  return ports ? currentItemsWith(ports, items) : items.map((item) => ({ item, owner: null }))
}

/**
 * The recovery job's pass over the open list, so an item leaves it when an order came to hold its
 * money although nobody opened the page (a store that holds such payments for a person, or an item
 * listed while its order's owner could not be told yet, whose half-made order is finished then).
 * Each run takes the items decided least recently (`decided_at`, IDX_paylater_attention_decided_at)
 * and marks them decided, so every open item is decided again within ceil(open / 200) runs however
 * many older ones stay open. Returns how many it closed.
 */
export async function redecideOpenItems(container: MedusaContainer, now: Date = new Date()): Promise<number> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return 0
  const open = (await ledger.listPayLaterAttentions(
    { status: "open", kind: [...MONEY_KINDS] },
    { order: { decided_at: "ASC" }, take: OPEN_ITEMS_PER_RUN }
  )) as unknown as AttentionRecord[]
  if (!open.length) return 0
  const current = await currentItems(container, open)
  // All of them, also those about no ledger row: an item the rule cannot decide must not stay first.
  await ledger.updatePayLaterAttentions({ selector: { id: open.map((i) => i.id) }, data: { decided_at: now } })
  return current.filter((c) => c.item.status !== "open").length
}

// A run's share of the open list; the rest is decided again by the next runs or when the page is read.
const OPEN_ITEMS_PER_RUN = 200

/** currentItems against any ports (unit tests use an in-memory ledger). */
export async function currentItemsWith(ports: ItemPorts, items: AttentionRecord[]): Promise<CurrentItem[]> {
  const isOpenMoney = (item: AttentionRecord) => item.status === "open" && MONEY_KINDS.has(item.kind) && !!item.paylater_order_id
  const ids = items.filter(isOpenMoney).map((i) => i.paylater_order_id!)
  if (!ids.length) return items.map((item) => ({ item, owner: null }))
  const rows = new Map((await ports.rowsOf(ids)).map((r) => [r.paylater_order_id, r]))
  const current: CurrentItem[] = []
  for (const item of items) {
    const row = isOpenMoney(item) ? rows.get(item.paylater_order_id!) : undefined
    if (!row) {
      current.push({ item, owner: null })
      continue
    }
    const facts = await ports.factsOf(row)
    const { owner } = facts
    const step = planMoney(facts).list
    if (step.step === "close_held" || step.step === "close_refunded") {
      await ports.applyListStep({ ...item, paylater_order_id: row.paylater_order_id }, step)
      current.push({ item: (await ports.reread(item.id)) ?? item, owner })
    } else {
      // Still listed: refundable, waiting for an order being placed, or (a row not paid) left to a person.
      current.push({ item, owner })
    }
  }
  return current
}

import { MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { whoseMoney } from "../medusa-records/order-owner"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { ownerSentence, type Owner } from "../modules/paylater-ledger/whose-money"

/** Items about PayLater money no order holds: the ones the owner decision can close. */
const MONEY_KINDS = new Set(["paid_without_order", "orphaned"])

export interface CurrentItem {
  item: AttentionRecord
  /** Whose money the item's payment is now; null for items about no single paid attempt. */
  owner: Owner | null
}

/**
 * Settings → PayLater's list as a view of the ledger: an item about money without an order stays
 * open exactly while its attempt is paid, held by no order, not refunded in full and not resolved by
 * a person. Each open one is decided again now (whoseMoney): one an order came to hold closes with
 * that note, one refunded in full (e.g. from the order page) closes as refunded. Nothing shown or
 * offered comes from facts read when the item was first listed.
 */
export async function currentItems(container: MedusaContainer, items: AttentionRecord[]): Promise<CurrentItem[]> {
  const ledger = ledgerModuleOf(container)
  const ids = items.filter((i) => i.status === "open" && MONEY_KINDS.has(i.kind) && i.paylater_order_id).map((i) => i.paylater_order_id!)
  if (!ledger || !ids.length) return items.map((item) => ({ item, owner: null }))
  const rows = new Map(
    ((await ledger.listPayLaterAttempts({ paylater_order_id: ids })) as unknown as AttemptRecord[]).map((r) => [r.paylater_order_id, r])
  )
  const current: CurrentItem[] = []
  for (const item of items) {
    const row = item.status === "open" && MONEY_KINDS.has(item.kind) ? rows.get(item.paylater_order_id ?? "") : undefined
    if (!row) {
      current.push({ item, owner: null })
      continue
    }
    const owner = await whoseMoney(container, row)
    if (owner.owner === "this_order") {
      await ledger.closeAttentionOfAttempt(row.paylater_order_id, `${ownerSentence(owner)} Nothing refunded.`)
      current.push({ item: (await reread(container, item.id)) ?? item, owner })
    } else if (item.amount && MathBN.gte(await ledger.refundedAmount(row.paylater_order_id), item.amount)) {
      const closed = await ledger.resolveAttention(item.id, { resolution: "refunded", note: `Refunded ${item.amount} QAR in full at PayLater.` })
      current.push({ item: closed, owner })
    } else {
      current.push({ item, owner })
    }
  }
  return current
}

async function reread(container: MedusaContainer, id: string): Promise<AttentionRecord | undefined> {
  const [item] = (await ledgerModuleOf(container)!.listPayLaterAttentions({ id }, { take: 1 })) as unknown as AttentionRecord[]
  return item
}

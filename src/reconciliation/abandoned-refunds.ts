import type { MedusaContainer } from "@medusajs/framework/types"
import { sentOnceStaleAfterMs } from "../lib/paylater"
import { configuredRegistrations } from "../medusa-records/registrations"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"

export interface AbandonedRefundLedger {
  listPayLaterRefundAttempts(filters: { status: string }, config: { select: string[]; take: number }): Promise<unknown[]>
  expireStaleRefundsOf(paylaterOrderId: string, staleAfterMs: number): Promise<void>
}

/**
 * Refunds whose process died between writing the attempt and recording PayLater's answer (the fault
 * campaign's crash point `refund:after-sent`, or a kill while the call was in flight) stay "pending"
 * with Medusa's refund record kept. Until now they went on Settings → PayLater only when somebody
 * tried another refund of the same payment; the recovery job now lists each once it cannot still be
 * in flight, so a refund PayLater may or may not have paid is never silent.
 */
export async function listAbandonedRefunds(ledger: AbandonedRefundLedger, staleAfterMs: number, now: Date): Promise<string[]> {
  const pending = (await ledger.listPayLaterRefundAttempts({ status: "pending" }, { select: ["paylater_order_id", "sent_at"], take: 500 })) as Array<{
    paylater_order_id: string
    sent_at: Date | string
  }>
  const stale = [...new Set(pending.filter((a) => now.getTime() - new Date(a.sent_at).getTime() > staleAfterMs).map((a) => a.paylater_order_id))]
  for (const paylaterOrderId of stale) {
    await ledger.expireStaleRefundsOf(paylaterOrderId, staleAfterMs)
  }
  return stale
}

/** When a refund can no longer be in flight in this store: the longest bound of its PayLater registrations (null: none). */
export function storeRefundStaleAfterMs(container: MedusaContainer): number | null {
  const bounds = configuredRegistrations(container).flatMap((r) => (r.options ? [sentOnceStaleAfterMs(r.options.config)] : []))
  return bounds.length ? Math.max(...bounds) : null
}

/** The sweep with the store's own stale bound. */
export async function sweepAbandonedRefunds(container: MedusaContainer): Promise<string[]> {
  const ledger = ledgerModuleOf(container)
  const staleAfterMs = storeRefundStaleAfterMs(container)
  if (!ledger || staleAfterMs === null) return []
  return listAbandonedRefunds(ledger as unknown as AbandonedRefundLedger, staleAfterMs, new Date())
}

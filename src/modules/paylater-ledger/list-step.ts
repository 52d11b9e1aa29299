import type { PayLaterLedgerModuleService } from "./service"
import type { AttentionRecord } from "./types"
import { refundedInFullNote, type ListStep } from "./money-plan"

/**
 * The money plan's list step applied to Settings → PayLater's list (the ledger's side of the one
 * executor, src/money-plan/apply.ts; also what records an order's owner, medusa-effects/order-owner.ts):
 * `close_held` closes every open item about the attempt's money with the step's note (nothing
 * refunded), `close_refunded` resolves the item as refunded; the other steps leave the list as it
 * is. Idempotent: closing a closed item changes nothing.
 */
export async function applyListStep(
  ledger: Pick<PayLaterLedgerModuleService, "closeAttentionOfAttempt" | "resolveAttention">,
  /** The attempt's money, and the item to resolve as refunded when the caller read one. */
  item: Partial<Pick<AttentionRecord, "id" | "amount" | "status">> & { paylater_order_id: string },
  step: ListStep
): Promise<void> {
  if (step.step === "close_held") await ledger.closeAttentionOfAttempt(item.paylater_order_id, step.note)
  if (step.step === "close_refunded" && item.id && item.status === "open") {
    await ledger.resolveAttention(item.id, { resolution: "refunded", note: refundedInFullNote(item.amount) })
  }
}


import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"

/** Runs in which settling one attempt threw before it is listed for a person (about 10 minutes at the default schedule). */
export const FAILURES_BEFORE_LISTING = 5

/**
 * Settling an attempt threw (a database error, a bug; never a lock timeout, which is "busy"): the
 * failure is counted on its row and, once it keeps failing, the attempt is listed on Settings →
 * PayLater with the error, so it is never retried silently and then forgotten.
 */
export async function noteSettlementFailure(container: MedusaContainer, paylaterOrderId: string | null | undefined, error: unknown): Promise<void> {
  const ledger = ledgerModuleOf(container)
  if (!ledger || !paylaterOrderId) return
  const message = error instanceof Error ? error.message : String(error)
  const failures = await ledger.recordSettlementFailure(paylaterOrderId, message)
  if (!failures || failures.count < FAILURES_BEFORE_LISTING) return
  await ledger.flagForAttention("settlement_failing", {
    dedupe_key: `settlement_failing:${paylaterOrderId}`,
    summary: `Settling PayLater order ${paylaterOrderId} failed ${failures.count} times since ${failures.first_at} (last: ${failures.last_error}). Check with PayLater now from the order, or look at the server logs.`,
    paylater_order_id: paylaterOrderId,
    detail: { settlement_failures: failures },
  })
}

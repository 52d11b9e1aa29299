import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { attemptOfPayment } from "../medusa-records/payment-attempt"
import { PAYLATER_PROVIDER } from "../medusa-records/session"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { BOOKING_METADATA_KEY } from "../providers/paylater/refund-guard"
import { storedAmountText } from "../providers/paylater/money"
import { storeRefundStaleAfterMs } from "./abandoned-refunds"

/**
 * Medusa writes its refund record, then calls the provider, and deletes the record when the provider
 * throws. A process or a database connection that dies in between leaves a record that PayLater
 * never received (fault campaign, issue 32: the automatic refund's record was written, the refund
 * guard's first query lost its connection, and Medusa's clean-up lost it too): the order shows the
 * money refunded, PayLater still holds it, and nothing said so. The refund guard writes its attempt,
 * with Medusa's refund id, before anything is sent; so a Medusa refund of a PayLater payment with no
 * attempt (or only a refused one) and no operator booking, older than the stale bound, was never
 * paid out. Each is listed once on Settings → PayLater for a person (refund the shopper in
 * PayLater's portal), never re-sent on a guess.
 */

/** How far back each run looks: runs are minutes apart, and the watchdog covers a stopped schedule. */
const LOOKBACK_MS = 24 * 3600_000

export const unsentRefundKeyOf = (medusaRefundId: string) => `refund_not_sent:${medusaRefundId}`

export interface UnsentRefund {
  refund_id: string
  payment_id: string
  amount: string
}

export async function listUnsentRefunds(container: MedusaContainer, now: Date = new Date()): Promise<UnsentRefund[]> {
  const ledger = ledgerModuleOf(container)
  const staleAfterMs = storeRefundStaleAfterMs(container)
  if (!ledger || staleAfterMs === null) return []
  const payments = container.resolve(Modules.PAYMENT)
  type RefundRow = { id: string; amount: unknown; raw_amount?: unknown; payment_id: string; metadata: Record<string, unknown> | null }
  const refunds = (await payments.listRefunds(
    { created_at: { $gte: new Date(now.getTime() - LOOKBACK_MS), $lte: new Date(now.getTime() - staleAfterMs) } } as never,
    { select: ["id", "amount", "raw_amount", "payment_id", "metadata", "created_at"], take: 1000 }
  )) as unknown as RefundRow[]
  const candidates = refunds.filter((r) => !r.metadata?.[BOOKING_METADATA_KEY])
  if (!candidates.length) return []
  const [paid, attempts, listed] = await Promise.all([
    payments.listPayments({ id: [...new Set(candidates.map((r) => r.payment_id))] } as never, {
      select: ["id", "provider_id", "payment_collection_id", "data"],
    }),
    ledger.listPayLaterRefundAttempts({ medusa_refund_id: candidates.map((r) => r.id) }, { select: ["medusa_refund_id", "status"] }),
    ledger.listPayLaterAttentions({ dedupe_key: candidates.map((r) => unsentRefundKeyOf(r.id)) }, { select: ["dedupe_key"] }),
  ])
  const paylaterPayments = new Map(paid.filter((p) => PAYLATER_PROVIDER.test(p.provider_id)).map((p) => [p.id, p]))
  // A refund PayLater refused ("failed") is as unpaid as one never sent: Medusa should have dropped its record.
  const sent = new Set(
    (attempts as Array<{ medusa_refund_id: string | null; status: string }>).filter((a) => a.status !== "failed").map((a) => a.medusa_refund_id)
  )
  const known = new Set((listed as Array<{ dedupe_key: string | null }>).map((a) => a.dedupe_key))
  const unsent: UnsentRefund[] = []
  for (const refund of candidates) {
    const payment = paylaterPayments.get(refund.payment_id)
    if (!payment || sent.has(refund.id) || known.has(unsentRefundKeyOf(refund.id))) continue
    const amount = storedAmountText(refund as never)
    await ledger.flagForAttention("mismatch", {
      dedupe_key: unsentRefundKeyOf(refund.id),
      summary:
        `Medusa records a refund of ${amount} QAR (${refund.id}) on payment ${payment.id} that PayLater never paid out: ` +
        "the server or its database connection stopped before Medusa could drop its record of a refund that was never sent or that PayLater refused. " +
        "Refund the shopper in PayLater's merchant portal (the order already shows this refund), then mark this resolved.",
      amount,
      paylater_order_id: attemptOfPayment(payment as { data?: Record<string, unknown> | null }),
      payment_id: payment.id,
      payment_collection_id: payment.payment_collection_id ?? null,
      detail: { medusa_refund_id: refund.id },
    })
    unsent.push({ refund_id: refund.id, payment_id: payment.id, amount })
  }
  return unsent
}

import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYLATER_PROVIDER } from "./session"
import { paymentIsForAttempt } from "../modules/paylater-ledger/whose-money"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"

/**
 * Which attempt (PayLater order) a Medusa payment was authorized for. The provider's authorization
 * names it from the ledger (refreshFromPayLater) and Medusa keeps that output as the payment's data,
 * which no storefront writes; the provider refunds the payment at that PayLater order. A session's
 * current attempt is not the same fact: a create whose answer was lost is retried as "-2" while the
 * first attempt, paid meanwhile, may already have been authorized and placed.
 */
export function attemptOfPayment(payment: { data?: Record<string, unknown> | null }): string | null {
  const id = payment.data?.paylater_order_id
  return typeof id === "string" && id ? id : null
}

/** The PayLater payment Medusa recorded for a session (it outlives the session), or null. */
export async function recordedPaymentOf(container: MedusaContainer, sessionId: string) {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments(
    { payment_session_id: sessionId },
    { select: ["id", "provider_id", "payment_collection_id", "created_at", "captured_at", "canceled_at", "data"], take: 1 }
  )
  return payment && PAYLATER_PROVIDER.test(payment.provider_id) ? payment : null
}

/**
 * The Medusa payment authorized for this attempt, or null: its session's payment when that payment
 * names this attempt (or, naming none, when this is the session's current attempt).
 */
export async function paymentOfAttempt(container: MedusaContainer, row: { paylater_order_id: string; session_id: string; superseded_by?: string | null }) {
  const payment = await recordedPaymentOf(container, row.session_id)
  if (!payment) return null
  return paymentIsForAttempt(attemptOfPayment(payment as { data?: Record<string, unknown> | null }), row) ? payment : null
}

/**
 * The PayLater orders a Medusa payment was authorized for (one, or none when it is not PayLater's),
 * by its session's ledger rows, never by the payment's data alone.
 */
export async function attemptsOfPayment(container: MedusaContainer, paymentId: string): Promise<string[]> {
  const [payment] = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ id: paymentId }, { select: ["id", "provider_id", "payment_session_id", "data"], take: 1 })
  const sessionId = (payment as { payment_session_id?: string | null } | undefined)?.payment_session_id
  if (!payment || !PAYLATER_PROVIDER.test(payment.provider_id) || !sessionId) return []
  const rows = (await ledgerModuleOf(container)?.attemptsOfSession(sessionId)) ?? []
  const named = attemptOfPayment(payment as { data?: Record<string, unknown> | null })
  return rows.filter((row) => paymentIsForAttempt(named, row)).map((row) => row.paylater_order_id)
}

import { MathBN, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { MoneyFacts } from "../modules/paylater-ledger/money-plan"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import { whoseMoney } from "../medusa-effects/order-owner"
import { paymentOfAttempt } from "../medusa-records/payment-attempt"

/**
 * Whether any of an attempt's money went back to the shopper, or may have (the ledger's
 * `moneyGivenBack`, the one rule), and whether PayLater gave back all of it (`amount`, the
 * attempt's). Read from the plugin's own tables only, never from Medusa's session data.
 */
async function refundFactsOf(
  ledger: PayLaterLedgerModuleService,
  paylaterOrderId: string,
  amount: BigNumberInput | null
): Promise<{ given_back: boolean; refunded_in_full: boolean }> {
  const { given_back, refunded } = await ledger.givenBackFacts(paylaterOrderId)
  return {
    given_back,
    refunded_in_full: amount !== null && MathBN.gt(refunded, 0) && MathBN.gte(refunded, amount),
  }
}

/**
 * The Medusa session that carries the attempt's money into a completion: the session its Medusa
 * payment was authorized from, or the live session whose current attempt it is (a completion would
 * authorize it from the paid row). Null when Medusa has none.
 */
async function medusaSessionOf(container: MedusaContainer, row: AttemptRecord, payment: MoneyFacts["medusa_payment"]): Promise<MoneyFacts["medusa_session"]> {
  if (row.superseded_by && !payment) return null
  const [session] = await container
    .resolve(Modules.PAYMENT)
    .listPaymentSessions({ id: row.session_id }, { select: ["id", "status"], take: 1 })
  return session ? { id: session.id, status: session.status } : null
}

/** The Medusa payment authorized for the attempt (it outlives its session), as the plan needs it. */
async function medusaPaymentOf(container: MedusaContainer, row: AttemptRecord): Promise<MoneyFacts["medusa_payment"]> {
  const payment = (await paymentOfAttempt(container, row)) as { id: string; canceled_at?: unknown; captured_at?: unknown } | null
  return payment ? { id: payment.id, canceled: !!payment.canceled_at, captured: !!payment.captured_at } : null
}

/**
 * The facts the money plan is decided from, read now (callers hold the money's locks, or pass
 * `record: false` and only look: whoseMoney).
 */
export async function moneyFactsOf(
  container: MedusaContainer,
  ledger: PayLaterLedgerModuleService,
  row: AttemptRecord,
  now: Date,
  options: { record?: boolean } = {}
): Promise<MoneyFacts> {
  const payment = await medusaPaymentOf(container, row)
  const [owner, refunds, session] = await Promise.all([
    whoseMoney(container, row, now, options),
    refundFactsOf(ledger, row.paylater_order_id, row.amount),
    medusaSessionOf(container, row, payment),
  ])
  return { owner, ...refunds, medusa_session: session, medusa_payment: payment }
}

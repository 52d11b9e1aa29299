import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterEventRecord } from "../modules/paylater-ledger/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import { storedAmountText } from "../providers/paylater/money"
import { PAYLATER_PROVIDER } from "../medusa-records/session"
import { whoseMoney } from "../medusa-effects/order-owner"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { AftercareFacts, LedgerRow } from "./order-attempts"
import type { ListingRow, RefundRow } from "./attempt-aftercare"
import { buildOrderActivity, type ActivityFacts, type ActivityPayment, type ActivitySession, type OrderActivity } from "./timeline"

type Row = Record<string, any>

/** Attempts listed on the order card besides the ones holding its money, newest first. */
const ATTEMPTS_SHOWN = 100

/** Medusa's sessions, payments, captures and refunds keep their exact amount in `raw_amount` too. */
const amount = (row: Row | undefined): string => storedAmountText({ amount: row?.amount ?? 0, raw_amount: row?.raw_amount })

/**
 * The ledger's rows for the order card's attempt list. By collection: attempts whose session Medusa
 * deleted; by session: rows settlement has not linked to their collection yet. The rows holding the
 * order's money are read on their own, so the cap on the others never hides them.
 */
async function readOrderAttempts(
  service: PayLaterLedgerModuleService,
  orderId: string,
  collectionIds: string[],
  sessionIds: string[]
): Promise<LedgerRow[]> {
  const or: Array<Record<string, unknown>> = [{ payment_collection_id: collectionIds }]
  if (sessionIds.length) or.push({ session_id: sessionIds })
  const [owners, others] = await Promise.all([
    service.listPayLaterAttempts({ order_id: orderId }),
    service.listPayLaterAttempts({ $or: or } as never, { order: { created_at: "DESC" }, take: ATTEMPTS_SHOWN }),
  ])
  const seen = new Set(owners.map((row) => row.id))
  return [...owners, ...others.filter((row) => !seen.has(row.id))] as unknown as LedgerRow[]
}

/**
 * A paid row no order is recorded on yet, decided now (whose-money.ts): an order Medusa's own
 * completion placed with it before any signal saw it is recorded here, so the card says "this
 * order's payment" and never "no order holds it" for money the order holds.
 */
async function withOwnerNow(container: MedusaContainer, row: LedgerRow): Promise<LedgerRow> {
  if (row.state !== "paid" || row.order_id) return row
  const owner = await whoseMoney(container, row as unknown as AttemptRecord)
  return owner.owner === "this_order" ? { ...row, order_id: owner.order_id, payment_id: owner.payment_id } : row
}

/**
 * Everything the order's PayLater history is built from: the order's payment collections, their
 * PayLater sessions and payments (captures, refunds) from the payment module, the ledger's attempts
 * and the activity log.
 * Throws NOT_FOUND for an unknown order. A log that cannot be read leaves the history to Medusa's
 * own records rather than failing the page.
 */
export async function readOrderActivityFacts(container: MedusaContainer, orderId: string): Promise<ActivityFacts> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [order],
  } = await query.graph({ entity: "order", fields: ["id"], filters: { id: orderId } })
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  const { data: links } = await query.graph({
    entity: "order_payment_collection",
    fields: ["payment_collection_id"],
    filters: { order_id: orderId },
  })
  const collectionIds = (links as Row[]).map((l) => l.payment_collection_id as string).filter(Boolean)
  if (!collectionIds.length) {
    return { order_id: orderId, sessions: [], payments: [], events: [], ledger: [] }
  }

  const payment = container.resolve(Modules.PAYMENT)
  const sessionRows = (await payment.listPaymentSessions(
    { payment_collection_id: collectionIds },
    {
      select: ["id", "provider_id", "status", "created_at", "amount", "raw_amount", "currency_code", "payment_collection_id"],
    }
  )) as unknown as Row[]
  const sessions: ActivitySession[] = sessionRows
    .filter((s) => PAYLATER_PROVIDER.test(s.provider_id))
    .map((s) => ({
      id: s.id,
      provider_id: s.provider_id,
      status: s.status,
      created_at: s.created_at,
      amount: amount(s),
      currency_code: s.currency_code,
      payment_collection_id: s.payment_collection_id,
    }))

  const paymentRows = (await payment.listPayments(
    { payment_collection_id: collectionIds } as never,
    { relations: ["captures", "refunds"] }
  )) as unknown as Row[]
  const payments: ActivityPayment[] = paymentRows
    .filter((p) => PAYLATER_PROVIDER.test(p.provider_id))
    .map((p) => ({
      id: p.id,
      session_id: p.payment_session_id ?? p.payment_session?.id ?? null,
      amount: amount(p),
      currency_code: p.currency_code,
      captured_at: p.captured_at ?? null,
      canceled_at: p.canceled_at ?? null,
      captures: ((p.captures ?? []) as Row[]).filter(Boolean).map((c) => ({ id: c.id, created_at: c.created_at, amount: amount(c) })),
      refunds: ((p.refunds ?? []) as Row[])
        .filter(Boolean)
        .map((r) => ({ id: r.id, created_at: r.created_at, amount: amount(r), note: r.note ?? null })),
    }))

  let events: PayLaterEventRecord[] = []
  let ledger: LedgerRow[] = []
  const service = ledgerModuleOf(container)
  if (service && sessions.length) {
    const attempts = await service.listPayLaterAttempts({ session_id: sessions.map((s) => s.id), superseded_by: null })
    for (const session of sessions) {
      session.attempt = (attempts.find((a) => a.session_id === session.id) as unknown as ActivitySession["attempt"]) ?? null
    }
  }
  let aftercare: AftercareFacts | undefined
  if (service) {
    ledger = await Promise.all((await readOrderAttempts(service, orderId, collectionIds, sessions.map((s) => s.id))).map((row) => withOwnerNow(container, row)))
    aftercare = await readAftercare(container, service, ledger)
  }
  if (service) {
    try {
      events = await service.listForPayments({
        payment_collection_ids: collectionIds,
        session_ids: sessions.map((s) => s.id),
      })
    } catch (error) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`PayLater activity: could not read the log for order ${orderId}: ${(error as Error)?.message ?? error}`)
    }
  }
  return { order_id: orderId, sessions, payments, events, ledger, aftercare }
}

/** The attempts' refunds and Settings → PayLater items, from the ledger; who refunded, by email. */
async function readAftercare(container: MedusaContainer, service: PayLaterLedgerModuleService, rows: LedgerRow[]): Promise<AftercareFacts> {
  const ids = rows.filter((row) => row.state === "paid").map((row) => row.paylater_order_id)
  if (!ids.length) return { refunds: [], listings: [] }
  const [refunds, listings] = await Promise.all([
    service.listPayLaterRefundAttempts({ paylater_order_id: ids }),
    service.listPayLaterAttentions({ paylater_order_id: ids }),
  ])
  const actorIds = [...new Set((listings as Row[]).map((l) => l.resolved_by).filter((id): id is string => typeof id === "string"))]
  const actors = new Map<string, string>()
  if (actorIds.length) {
    const { data: users } = await container
      .resolve(ContainerRegistrationKeys.QUERY)
      .graph({ entity: "user", fields: ["id", "email"], filters: { id: actorIds } })
      .catch(() => ({ data: [] as Row[] }))
    for (const user of users as Row[]) if (user.email) actors.set(user.id, user.email)
  }
  return { refunds: refunds as unknown as RefundRow[], listings: listings as unknown as ListingRow[], actors }
}

/** Read-only: the order's PayLater summary and history (GET /admin/paylater/orders/:id/activity). */
export async function readOrderActivity(container: MedusaContainer, orderId: string): Promise<OrderActivity> {
  return buildOrderActivity(await readOrderActivityFacts(container, orderId), new Date())
}

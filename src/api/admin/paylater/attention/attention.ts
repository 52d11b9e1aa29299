import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { ledgerModuleOf } from "../../../../modules/paylater-ledger/resolve"
import type { PayLaterLedgerModuleService } from "../../../../modules/paylater-ledger/service"
import { ATTENTION_RESOLUTIONS, type AttentionRecord } from "../../../../modules/paylater-ledger/types"
import { paymentOfAttempt } from "../../../../medusa-records/payment-attempt"
import { currentItems, type CurrentItem } from "../../../../paid-without-order/current-items"
import { heldByNoOrder, type Owner } from "../../../../modules/paylater-ledger/whose-money"
import { unroutedItems } from "../../../../paid-without-order/item-registration"
import { BOOKING_METADATA_KEY } from "../../../../providers/paylater/refund-guard"
import { medusaRefundOf } from "../../../../modules/paylater-ledger/money-plan"
import { whoseMoney } from "../../../../medusa-effects/order-owner"
import { convergeMoneyOrLeaveToRecovery } from "../../../../money-plan/apply"

/** The plugin's module, or a clear 500 when the app runs without it. */
export function requireLedgerModule(container: MedusaContainer): PayLaterLedgerModuleService {
  const service = ledgerModuleOf(container)
  if (!service) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      "The PayLater plugin's paylater_ledger module is not loaded: add the plugin to `plugins` in medusa-config and run db:migrate."
    )
  }
  return service
}

/** An item as the admin page shows it: the order and cart it belongs to, and what can be done. */
export interface AttentionView extends AttentionRecord {
  order_id: string | null
  cart_id: string | null
  /** Resolutions the page may offer (ATTENTION_RESOLUTIONS of the kind), empty once resolved. */
  resolutions: string[]
  /**
   * A refund from the list is possible (a payment exists, nothing is unknown about it, and the
   * registration that took it is configured).
   */
  can_refund: boolean
  /** Whose money the item's payment is, decided when the list was read (whose-money.ts), if it is about one. */
  whose_money: Owner["owner"] | null
}

export async function loadAttention(container: MedusaContainer, item: AttentionRecord): Promise<AttentionView> {
  const [view] = await viewsOf(container, await currentItems(container, [item]))
  return view
}

export async function listAttention(container: MedusaContainer, status: "open" | "resolved" | "all"): Promise<AttentionView[]> {
  const items = (await requireLedgerModule(container).listPayLaterAttentions(status === "all" ? {} : { status }, {
    order: { created_at: "DESC" },
    take: 200,
  })) as unknown as AttentionRecord[]
  // Open items are decided again now: one an order came to hold, or refunded in full, leaves the list.
  const decided = await currentItems(container, items)
  return viewsOf(container, status === "open" ? decided.filter((d) => d.item.status === "open") : decided)
}

/** Fills order and cart from the payment collection (or the payment's) when the item did not know them. */
async function viewsOf(container: MedusaContainer, decided: CurrentItem[]): Promise<AttentionView[]> {
  const items = decided.map((d) => d.item)
  const ownerOf = new Map(decided.map((d) => [d.item.id, d.owner]))
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const paymentIds = items.filter((i) => !i.payment_collection_id && i.payment_id).map((i) => i.payment_id as string)
  const collectionOfPayment = new Map<string, string>()
  if (paymentIds.length) {
    const { data } = await query.graph({ entity: "payment", fields: ["id", "payment_collection_id"], filters: { id: paymentIds } })
    for (const row of data as Array<{ id: string; payment_collection_id: string | null }>) {
      if (row.payment_collection_id) collectionOfPayment.set(row.id, row.payment_collection_id)
    }
  }
  const collectionOf = (item: AttentionRecord) =>
    item.payment_collection_id ?? (item.payment_id ? collectionOfPayment.get(item.payment_id) ?? null : null)
  const collectionIds = [...new Set(items.map(collectionOf).filter((id): id is string => !!id))]
  const links = new Map<string, { order_id: string | null; cart_id: string | null }>()
  if (collectionIds.length) {
    const { data } = await query.graph({
      entity: "payment_collection",
      fields: ["id", "order.id", "cart.id"],
      filters: { id: collectionIds },
    })
    for (const row of data as Array<{ id: string; order?: { id: string } | null; cart?: { id: string } | null }>) {
      links.set(row.id, { order_id: row.order?.id ?? null, cart_id: row.cart?.id ?? null })
    }
  }
  // Never refunded at another account than the one that took it (registrationOfAttempt).
  const unrouted = await unroutedItems(container, requireLedgerModule(container), items)
  return items.map((item) => {
    const collectionId = collectionOf(item)
    const link = collectionId ? links.get(collectionId) : undefined
    const open = item.status === "open"
    const owner = ownerOf.get(item.id) ?? null
    return {
      ...item,
      payment_collection_id: collectionId,
      order_id: item.order_id ?? link?.order_id ?? null,
      cart_id: item.cart_id ?? link?.cart_id ?? null,
      resolutions: open ? [...(ATTENTION_RESOLUTIONS[item.kind] ?? ["resolved"])] : [],
      can_refund: open && canRefund(item) && !unrouted.has(item.id) && (!owner || heldByNoOrder(owner)),
      whose_money: owner?.owner ?? null,
    }
  })
}

/**
 * A refund closes the item: through its Medusa payment, or, for money no Medusa payment holds (an
 * attempt whose session is gone), straight to PayLater under the refund guard; and a kind a refund
 * resolves.
 */
export function canRefund(item: AttentionRecord): boolean {
  const direct = item.kind === "paid_without_order" && !!item.paylater_order_id && !!item.amount && typeof item.detail?.provider_id === "string"
  return (
    (!!item.payment_id || direct) &&
    item.kind !== "refund_outcome_unknown" &&
    (ATTENTION_RESOLUTIONS[item.kind] ?? []).includes("refunded")
  )
}

export async function attentionItem(container: MedusaContainer, id: string): Promise<AttentionRecord> {
  const [item] = (await requireLedgerModule(container).listPayLaterAttentions({ id }, { take: 1 })) as unknown as AttentionRecord[]
  if (!item) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayLater attention item ${id} was not found`)
  }
  return item
}

/**
 * An operator confirmed PayLater paid out a refund whose answer was lost. Medusa deleted its refund
 * record when the call failed, so Medusa does not show it: record it as the refund would have been,
 * marked so the provider only books it and sends nothing to PayLater. The order's own money through
 * Medusa's refund workflow (order transaction, payment status, event), as the order page's Refund;
 * money no order holds (an extra or order-less payment refunded from Settings → PayLater) on the
 * payment only, as that refund does, never against an order (the money plan's `medusa_refund`).
 * Answers the error text when Medusa refuses (the resolution stands).
 */
export async function bookConfirmedRefund(
  container: MedusaContainer,
  item: AttentionRecord,
  actorId: string | null
): Promise<{ booked: boolean; booking_error: string | null }> {
  const attemptId = item.detail?.refund_attempt_id
  // Refunds record the payment from the attempt ledger; one Medusa recorded without the plugin
  // seeing it yet is found by its session.
  const paymentId =
    item.payment_id ??
    (item.session_id && item.paylater_order_id
      ? (await paymentOfAttempt(container, { paylater_order_id: item.paylater_order_id, session_id: item.session_id }))?.id
      : null) ??
    null
  if (!paymentId || typeof attemptId !== "string" || !item.amount) {
    return { booked: false, booking_error: "No Medusa payment is linked to this refund; record it on the order by hand." }
  }
  try {
    // `metadata` is not in the workflow's input type, but its refund step hands the whole input to
    // the payment module, which stores it on the refund record the provider then reads.
    const input = {
      payment_id: paymentId,
      amount: item.amount,
      created_by: actorId ?? undefined,
      note: "PayLater refund confirmed by an operator after PayLater did not answer",
      metadata: { [BOOKING_METADATA_KEY]: attemptId },
    }
    const ledger = requireLedgerModule(container)
    const row = item.paylater_order_id ? await ledger.findAttempt(item.paylater_order_id) : null
    if (!row) return { booked: false, booking_error: "No PayLater payment on record names this refund; record it on the order by hand." }
    const owner = await whoseMoney(container, row, new Date(), { record: false })
    const medusaRefund = medusaRefundOf(owner)
    const onTheOrder = medusaRefund.step === "allow"
    if (medusaRefund.step === "refuse" && !heldByNoOrder(owner)) {
      // Not yet decidable (an order being recorded or finished): booked neither way rather than wrongly.
      return { booked: false, booking_error: medusaRefund.why }
    }
    // The provider's refund call then books this attempt instead of sending it (refund-guard.ts).
    await ledger.requestBooking(attemptId)
    if (onTheOrder) {
      await refundPaymentWorkflow(container).run({ input })
    } else {
      await container.resolve(Modules.PAYMENT).refundPayment(input)
      // No payment.refunded event on this road: the plan is applied here (the recovery job would otherwise).
      await convergeMoneyOrLeaveToRecovery(container, row.paylater_order_id)
    }
    return { booked: true, booking_error: null }
  } catch (error) {
    await requireLedgerModule(container).withdrawBooking(attemptId).catch(() => undefined)
    return { booked: false, booking_error: (error as Error)?.message ?? String(error) }
  }
}

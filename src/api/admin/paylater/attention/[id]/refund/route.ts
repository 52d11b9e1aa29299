import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { sendRefund } from "../../../../../../paid-without-order/auto-refund"
import { notRefundableMessage, whyNotRefundable } from "../../../../../../paid-without-order/item-registration"
import { requireLedgerModule, attentionItem, canRefund, loadAttention } from "../../attention"

/** The order the payment's collection belongs to, if any. */
async function orderOfPayment(container: MedusaContainer, paymentId: string): Promise<string | null> {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: paymentId }, { select: ["payment_collection_id"], take: 1 })
  if (!payment) return null
  const {
    data: [link],
  } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: payment.payment_collection_id } })
  return link?.order_id ?? null
}

/**
 * POST /admin/paylater/attention/:id/refund { amount? }: refunds the item's payment through Medusa
 * (so the refund guard and the order's records apply as for the order page's Refund), the whole
 * remaining amount by default, then marks the item resolved as refunded.
 */
export async function POST(req: AuthenticatedMedusaRequest<{ amount?: unknown }>, res: MedusaResponse): Promise<void> {
  const body = (req.body ?? {}) as { amount?: unknown }
  const item = await attentionItem(req.scope, req.params.id)
  if (item.status !== "open") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This item is already resolved.")
  }
  if (item.kind === "refund_outcome_unknown") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "First record whether PayLater refunded the earlier refund (check the PayLater merchant portal)."
    )
  }
  if (!canRefund(item)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This PayLater payment has no Medusa payment to refund from: refund it in the PayLater merchant portal, then mark it resolved."
    )
  }
  // Only at the PayLater account of the registration that took it; none configured: refused.
  const unrouted = await whyNotRefundable(req.scope, requireLedgerModule(req.scope), item)
  if (unrouted) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, notRefundableMessage(unrouted))
  }
  const amount = body.amount
  if (amount !== undefined && !(typeof amount === "string" && /^\d{1,9}(\.\d{1,2})?$/.test(amount))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'amount must be QAR text with at most two decimals, e.g. "120.00".')
  }
  const actorId = req.auth_context?.actor_id ?? undefined
  const input = { payment_id: item.payment_id as string, amount: amount as string | undefined, created_by: actorId }
  if (!item.payment_id) {
    // No Medusa payment holds this money: straight to PayLater, under the refund guard.
    await sendRefund(req.scope, requireLedgerModule(req.scope), item, amount as string | undefined)
  } else if (await orderOfPayment(req.scope, input.payment_id)) {
    await refundPaymentWorkflow(req.scope).run({ input })
  } else {
    // Paid without an order: Medusa's refund workflow needs an order, the payment module does not.
    await req.scope.resolve(Modules.PAYMENT).refundPayment({ ...input, note: "PayLater: paid without an order, refunded from Settings → PayLater" })
  }
  const resolved = await requireLedgerModule(req.scope).resolveAttention(item.id, {
    resolution: "refunded",
    note: `Refunded ${amount ? `${amount} QAR` : "in full"} from Settings → PayLater`,
    actor_id: actorId ?? null,
  })
  res.json({ attention: await loadAttention(req.scope, resolved) })
}

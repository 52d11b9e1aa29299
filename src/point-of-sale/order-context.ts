import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { storedAmountText, toAmountText } from "../providers/paylater/money"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { PAYLATER_RTP_PROVIDER, readPayLaterSession, type PayLaterSessionContext } from "../medusa-records/session"

export interface OrderRequestContext {
  order_id: string
  order_status: string
  is_draft_order: boolean
  currency_code: string
  /** Two-decimal text; "0.00" when nothing is owed. */
  outstanding_amount: string
  /** Request to Pay providers enabled in the order's region. */
  rtp_provider_ids: string[]
  /** The most recent Request to Pay session on any of the order's payment collections. */
  latest: PayLaterSessionContext | null
  /**
   * Two-decimal text of PayLater money paid at the order's checkout that the order's records do not
   * hold yet (a completion that died part-way, finished by the plugin): not outstanding, whatever the
   * order's summary says. Null when there is none.
   */
  checkout_money_unrecorded: string | null
}

type Row = Record<string, any>

/** Everything the point-of-sale routes decide on, read through Query. Throws NOT_FOUND for unknown orders. */
export async function readOrderRequestContext(container: MedusaContainer, orderId: string): Promise<OrderRequestContext> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [order],
  } = await query.graph({
    entity: "order",
    fields: ["id", "status", "is_draft_order", "currency_code", "region_id", "summary.*"],
    filters: { id: orderId },
  })
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  const summary = (order.summary ?? {}) as Row
  const pending = summary.raw_pending_difference ?? summary.pending_difference ?? 0

  const { data: links } = await query.graph({
    entity: "order_payment_collection",
    fields: ["payment_collection_id"],
    filters: { order_id: orderId },
  })
  const collectionIds = (links as Row[]).map((l) => l.payment_collection_id as string)
  let latestId: string | null = null
  if (collectionIds.length) {
    const { data: sessions } = await query.graph({
      entity: "payment_session",
      fields: ["id", "provider_id", "created_at"],
      filters: { payment_collection_id: collectionIds },
    })
    const rtp = (sessions as Row[])
      .filter((s) => PAYLATER_RTP_PROVIDER.test(s.provider_id))
      .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())
    latestId = rtp[0]?.id ?? null
  }

  let providers: string[] = []
  if (order.region_id) {
    const {
      data: [region],
    } = await query.graph({ entity: "region", fields: ["payment_providers.id"], filters: { id: order.region_id } })
    providers = ((region?.payment_providers ?? []) as Row[])
      .map((p) => p?.id as string)
      .filter((id) => !!id && PAYLATER_RTP_PROVIDER.test(id))
  }

  return {
    order_id: order.id,
    order_status: order.status,
    is_draft_order: !!order.is_draft_order,
    currency_code: order.currency_code,
    outstanding_amount: toAmountText(pending),
    rtp_provider_ids: providers,
    latest: latestId ? await readPayLaterSession(container, latestId) : null,
    checkout_money_unrecorded: await checkoutMoneyUnrecorded(container, orderId),
  }
}

/**
 * PayLater money paid for the order's cart whose row no order holds yet and that did not go back:
 * the order's own checkout payment while its records are unfinished (or an extra payment the list
 * settles). Either way, asking the shopper to pay the order's total again would charge them twice.
 */
async function checkoutMoneyUnrecorded(container: MedusaContainer, orderId: string): Promise<string | null> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return null
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: orderId } })
  const cartIds = (carts as Row[]).map((c) => c.cart_id as string)
  if (!cartIds.length) return null
  const { data: links } = await query.graph({ entity: "cart_payment_collection", fields: ["payment_collection_id"], filters: { cart_id: cartIds } })
  const collectionIds = (links as Row[]).map((l) => l.payment_collection_id as string)
  const [byCart, byCollection] = await Promise.all([
    ledger.listPayLaterAttempts({ cart_id: cartIds, state: "paid", order_id: null }),
    collectionIds.length ? ledger.listPayLaterAttempts({ payment_collection_id: collectionIds, state: "paid", order_id: null }) : [],
  ])
  const rows = [...new Map([...byCart, ...byCollection].map((r) => [r.id, r as unknown as AttemptRecord])).values()]
  let total = MathBN.convert(0)
  for (const row of rows) {
    if (!(await ledger.moneyGivenBack(row.paylater_order_id))) total = MathBN.add(total, storedAmountText(row))
  }
  return MathBN.gt(total, 0) ? toAmountText(total as never) : null
}

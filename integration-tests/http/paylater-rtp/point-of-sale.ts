/** Admin side of the point of sale: an order with an outstanding amount, from a draft order. */
import type { AxiosInstance } from "axios"
import type { SeedResult } from "../../helpers/seed"
import { QA_ADDRESS, type AdminAuth } from "../../helpers/store-client"

const keep = { validateStatus: () => true }

/**
 * Draft order (one 350 QAR item + 10 QAR shipping) converted to an order: 360.00 outstanding.
 * `small`: one 100 QAR item + 50 QAR shipping, 150.00 outstanding (below the payment link's minimum).
 */
export async function orderWithOutstandingAmount(
  api: AxiosInstance,
  admin: AdminAuth,
  seed: SeedResult,
  opts: { small?: boolean } = {}
): Promise<string> {
  const variant = opts.small ? seed.variants.belowMin : seed.variants.standard
  const created = await api.post(
    "/admin/draft-orders",
    {
      region_id: seed.regionId,
      sales_channel_id: seed.salesChannelId,
      email: "counter-shopper@example.com",
      items: [{ variant_id: variant.id, quantity: 1 }],
      shipping_address: QA_ADDRESS,
      billing_address: QA_ADDRESS,
      shipping_methods: [{ name: "Doha delivery", shipping_option_id: seed.shippingOptionId, amount: opts.small ? 50 : 10 }],
    },
    { ...admin, ...keep }
  )
  if (created.status !== 200) throw new Error(`draft order: ${created.status} ${JSON.stringify(created.data)}`)
  const converted = await api.post(`/admin/draft-orders/${created.data.draft_order.id}/convert-to-order`, {}, { ...admin, ...keep })
  if (converted.status !== 200) throw new Error(`convert: ${converted.status} ${JSON.stringify(converted.data)}`)
  return converted.data.order.id
}

export function requestToPayApi(api: AxiosInstance, admin: AdminAuth, orderId: string) {
  const path = `/admin/paylater/orders/${orderId}/request-to-pay`
  return {
    send: (mobile: string) => api.post(path, { mobile_number: mobile }, { ...admin, ...keep }),
    state: () => api.get(path, { ...admin, ...keep }),
  }
}

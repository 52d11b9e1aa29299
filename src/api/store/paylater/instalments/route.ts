import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { parseMinorUnits, formatMinorUnits, requestToPayRange } from "../../../../lib/paylater"
import { toAmountText } from "../../../../providers/paylater/money"
import { registeredProviderOptions } from "../../../../medusa-records/registrations"
import { PAYLATER_RTP_PROVIDER } from "../../../../medusa-records/session"
import { instalmentOffer } from "./offer"

const DEFAULT_PROVIDER = "pp_paylater_paylater"

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "string" || value.length > 100) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${name} must be given once, as text`)
  }
  return value
}

function amountOf(text: string): string {
  let minor: bigint
  try {
    minor = parseMinorUnits(text.trim(), "amount")
  } catch {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'amount must be a decimal amount in QAR with at most two decimals, e.g. "360.00"')
  }
  if (minor <= 0n) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount must be greater than 0")
  }
  return formatMinorUnits(minor)
}

/**
 * GET /store/paylater/instalments?amount=360.00 | ?cart_id=cart_...  [&provider_id=pp_paylater_paylater]
 *
 * The instalment plan(s) PayLater would split the amount into, for product, cart and checkout pages.
 * Computed here from the provider's options (no PayLater call; PayLater publishes no plan operation)
 * and kept in memory per amount. For a cart, the amount is the cart's total with delivery, which is
 * what PayLater will be asked for. A /store route: the publishable key is required.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const query = req.query as Record<string, unknown>
  const amountText = single(query.amount, "amount")
  const cartId = single(query.cart_id, "cart_id")
  const providerId = single(query.provider_id, "provider_id") ?? DEFAULT_PROVIDER
  if ((amountText === undefined) === (cartId === undefined)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Give either amount or cart_id")
  }
  const options = registeredProviderOptions(req.scope, providerId)
  if (!options) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `${providerId} is not a PayLater payment provider of this store`)
  }
  // Each method's own range: Request to Pay is not bound by the link's minimum (the provider checks the same).
  const range = PAYLATER_RTP_PROVIDER.test(providerId) ? requestToPayRange(options.config) : options.config
  const settings = { minAmount: range.minAmount, maxAmount: range.maxAmount, plans: options.checkout.plans }

  if (amountText !== undefined) {
    // Depends only on the amount and the store's options: browsers and CDNs may keep it a while.
    res.setHeader("Cache-Control", "public, max-age=300")
    res.json(instalmentOffer(providerId, amountOf(amountText), "qar", settings))
    return
  }

  const queryService = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await queryService.graph({
    entity: "cart",
    fields: ["id", "total", "currency_code"],
    filters: { id: cartId },
  })
  const cart = data[0] as { total?: unknown; currency_code?: string } | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${cartId} was not found`)
  }
  // A cart changes: never kept by a browser or proxy.
  res.setHeader("Cache-Control", "no-store")
  // An empty cart (0.00) is below any minimum, so no plan is ever computed for it.
  const total = toAmountText((cart.total ?? 0) as number)
  res.json(instalmentOffer(providerId, total, (cart.currency_code ?? "").toLowerCase(), settings))
}

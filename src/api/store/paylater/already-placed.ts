import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { registeredProviderOptions } from "../../../medusa-records/registrations"
import { ownersOf } from "../../../medusa-records/owners"
import { SHOPPER_MESSAGES } from "../../../storefront/messages"

/** What the store answers, and the storefront kit recognises (src/storefront/errors.ts). */
export const ORDER_ALREADY_PLACED_CODE = "paylater_order_already_placed"

/**
 * In front of Medusa's POST /store/payment-collections/:id/payment-sessions (api/middlewares.ts): a
 * completed cart (or a collection whose order exists) takes no new PayLater payment. After a
 * webhook-only completion the storefront still holds the cart and shows the review step; a new
 * session there would delete the paid one and ask the shopper to pay again. Decided from Medusa's
 * own links (collection → cart → order), never from what the storefront sends. 409 with the order
 * the storefront should show; nothing reaches the provider or PayLater.
 */
export async function refuseAlreadyPlaced(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const body = (req.body ?? {}) as { provider_id?: unknown }
    const providerId = typeof body.provider_id === "string" ? body.provider_id : ""
    const collectionId = req.params?.id
    if (!registeredProviderOptions(req.scope, providerId) || typeof collectionId !== "string" || !collectionId) {
      return next()
    }
    const owner = (await ownersOf(req.scope, [collectionId])).get(collectionId)
    const cartCompleted = !owner?.order_id && owner?.cart_id ? await completedAt(req, owner.cart_id) : false
    if (!owner?.order_id && !cartCompleted) {
      return next()
    }
    answerAlreadyPlaced(res, owner?.order_id ?? null)
  } catch (error) {
    next(error)
  }
}

/** The 409 the storefront kit turns into "already placed" with the order to show (src/storefront/errors.ts). */
export function answerAlreadyPlaced(res: MedusaResponse, orderId: string | null): void {
  res.status(409).json({
    type: "not_allowed",
    code: ORDER_ALREADY_PLACED_CODE,
    message: `${SHOPPER_MESSAGES.already_placed.en}${orderId ? ` (${orderId})` : ""}`,
    order_id: orderId,
  })
}

/** A cart Medusa marked completed (its order link may still be being written). */
async function completedAt(req: MedusaRequest, cartId: string): Promise<boolean> {
  const {
    data: [cart],
  } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "cart", fields: ["id", "completed_at"], filters: { id: cartId } })
  return !!cart?.completed_at
}

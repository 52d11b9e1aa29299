import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { withinCartCompletion } from "../../../providers/paylater/cart-completion-scope"

/**
 * In front of Medusa's own `POST /store/carts/:id/complete`: the route's completion runs in the
 * cart completion scope, so that its rollback, when it fails, refunds no PayLater payment no order
 * holds (providers/paylater/cart-completion-scope.ts).
 */
export function inCartCompletionScope(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  const cartId = req.params?.id
  if (typeof cartId !== "string" || !cartId) return next()
  withinCartCompletion(cartId, () => next())
}

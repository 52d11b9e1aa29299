import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { finishAbandonedCompletion, isEngineRefusal } from "../../../settlement/abandoned-completion"

/**
 * In front of Medusa's own `POST /store/carts/:id/complete`: when Medusa's workflow engine abandons
 * the route's completion run part-way ("Updating Status ... is not allowed",
 * settlement/abandoned-completion.ts), the run's rollback never runs and it keeps the cart's lock
 * for its 2-minute lease, so no other road (the plugin's settlement of the paid notification, the
 * shopper's return) can undo its order meanwhile. Before Medusa's error answer leaves, that rollback
 * is finished here, as the plugin's own completion does when it meets the refusal. Any other answer
 * passes untouched; a failure of the clean-up is logged and the answer still sent.
 */
export function finishAbandonedStoreCompletion(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const cartId = req.params?.id
  if (typeof cartId !== "string" || !cartId) return next()
  const startedAt = Date.now()
  const json = res.json.bind(res) as (body: unknown) => MedusaResponse
  res.json = ((body: unknown) => {
    if (res.statusCode < 400 || !isEngineRefusal((body as { message?: unknown } | null)?.message)) return json(body)
    finishAbandonedCompletion(req.scope, cartId, startedAt)
      .catch((error) =>
        req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`PayLater: the abandoned completion of cart ${cartId} was not cleaned up: ${(error as Error)?.message}`)
      )
      .finally(() => json(body))
    return res
  }) as MedusaResponse["json"]
  next()
}

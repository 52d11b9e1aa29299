import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { finishAbandonedCompletion, isEngineRefusal } from "../../../medusa-effects/abandoned-completion"

/**
 * In front of Medusa's own `POST /store/carts/:id/complete`: when Medusa's workflow engine abandons
 * the route's completion run part-way ("Updating Status ... is not allowed",
 * medusa-effects/abandoned-completion.ts), the run's rollback never runs and it keeps the cart's lock
 * for its 2-minute lease, so no other road (the plugin's settlement of the paid notification, the
 * shopper's return) can undo its order meanwhile. Before the answer leaves, that rollback is
 * finished here, as the plugin's own completion does when it meets the refusal, and the storefront
 * is told what happened instead of the engine's internal refusal: the item sold out (the leftover
 * order had no stock reserved, the rollback is finished), or, when nothing was left to undo, that
 * the completion was interrupted and may be sent again. Any other answer passes untouched; a
 * failure of the clean-up is logged and the retryable answer sent.
 */
export function abandonedCompletionCleanup(finish: typeof finishAbandonedCompletion = finishAbandonedCompletion) {
  return function finishAbandonedStoreCompletion(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
    const cartId = req.params?.id
    if (typeof cartId !== "string" || !cartId) return next()
    const startedAt = Date.now()
    const json = res.json.bind(res) as (body: unknown) => MedusaResponse
    res.json = ((body: unknown) => {
      if (res.statusCode < 400 || !isEngineRefusal((body as { message?: unknown } | null)?.message)) return json(body)
      finish(req.scope, cartId, startedAt)
        .catch((error) => {
          req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`PayLater: the abandoned completion of cart ${cartId} was not cleaned up: ${(error as Error)?.message}`)
          return false
        })
        .then((undone) => {
          const answer = abandonedCompletionAnswer(undone)
          res.status(answer.status)
          json(answer.body)
        })
      return res
    }) as MedusaResponse["json"]
    next()
  }
}

export const finishAbandonedStoreCompletion = abandonedCompletionCleanup()

/** What the storefront is told when the engine abandoned its completion (Medusa's error shape). */
export function abandonedCompletionAnswer(undone: boolean): { status: number; body: { type: string; message: string } } {
  return undone
    ? {
        status: 400,
        body: { type: MedusaError.Types.NOT_ALLOWED, message: "The cart could not be completed: an item in it is no longer in stock." },
      }
    : {
        status: 409,
        body: { type: MedusaError.Types.CONFLICT, message: "The cart's completion was interrupted before it finished; complete the cart again." },
      }
}

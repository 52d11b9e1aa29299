import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { completeCartWorkflowId } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { readReturnContext, type ReturnContext } from "./load-return-context"

export const completeCartForPayLaterReturnStepId = "complete-cart-for-paylater-return"

// The cart lock itself waits up to 30 s; these retries only cover a run that gave up on it.
const ATTEMPTS = 3
const PAUSE_MS = 500

function isLockConflict(message: string): boolean {
  return /lock|already being completed|conflict/i.test(message)
}

/**
 * Runs Medusa's own cart completion as a top-level workflow (so it takes the cart lock; nested, the
 * lock step would be skipped). Completion asks PayLater for the status through authorizePayment and
 * places the order only for a paid session. It is safe when the webhook got there first or runs at
 * the same moment: the loser waits on the lock, then finds the order and creates nothing.
 */
export const completeCartForPayLaterReturnStep = createStep(
  completeCartForPayLaterReturnStepId,
  async (input: { context: ReturnContext }, { container }) => {
    const { context } = input
    if (context.order_id || !context.cart_id) {
      return new StepResponse(context)
    }
    const engine = container.resolve(Modules.WORKFLOW_ENGINE)
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const { errors, transaction } = await engine.run(completeCartWorkflowId, {
        input: { id: context.cart_id },
        throwOnError: false,
      })
      const error = errors?.[0]?.error as { message?: string } | undefined
      const unfinished = !transaction?.hasFinished?.()
      if (!error && !unfinished) {
        break
      }
      const message = error?.message ?? "cart completion did not finish"
      if (!unfinished && !isLockConflict(message)) {
        // Not paid (pending / failed) or not completable: the session and order state below say which.
        logger.info(`PayLater return: cart ${context.cart_id} not completed: ${message}`)
        break
      }
      if (attempt < ATTEMPTS) {
        await sleep(PAUSE_MS * attempt)
      }
    }
    return new StepResponse((await readReturnContext(container, context.session_id)) ?? context)
  }
)

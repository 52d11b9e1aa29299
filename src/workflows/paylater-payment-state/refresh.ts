import { randomUUID } from "node:crypto"
import { processPaymentWorkflowId } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { decidePaymentState, isSettled } from "./decide"
import { recordOrderCaptures } from "./order-captures"
import type { PayLaterSessionContext } from "./session-context"

/** How often a waiting session may be checked with PayLater while someone polls it. */
export const REFRESH_INTERVAL_SECONDS = 5

// Long enough for a cart completion already holding the cart lock to finish.
const LOCK_WAIT_SECONDS = 5

/**
 * One slot per session per interval, taken in the locking module and left to expire (never released):
 * concurrent polls, even on several servers with the Redis locking provider, refresh only once.
 */
async function takeRefreshSlot(container: MedusaContainer, sessionId: string, seconds: number): Promise<boolean> {
  try {
    await container.resolve(Modules.LOCKING).acquire(`paylater:refresh:${sessionId}`, {
      ownerId: `paylater-refresh:${randomUUID()}`,
      expire: seconds,
    })
    return true
  } catch {
    return false
  }
}

/**
 * Asks PayLater through the provider by authorizing the session: pending or failed answers are
 * written to the session (status and data) and refused; a success creates the payment and its
 * capture once (the payment module is idempotent here and a unique index backs it). Done under the
 * cart's own lock, the one cart completion and processPaymentWorkflow take, so it never runs beside them.
 */
async function authorizeUnderLock(container: MedusaContainer, context: PayLaterSessionContext): Promise<boolean> {
  const payment = container.resolve(Modules.PAYMENT)
  const key = context.cart_id ?? `paylater:collection:${context.payment_collection_id}`
  try {
    return await container.resolve(Modules.LOCKING).execute(
      key,
      async () => {
        try {
          return !!(await payment.authorizePaymentSession(context.session_id, {}))
        } catch {
          // Not paid (yet), or PayLater unreachable: what it said, if anything, is on the session now.
          return false
        }
      },
      { timeout: LOCK_WAIT_SECONDS }
    )
  } catch {
    return false
  }
}

/**
 * The same processing a verified `success` webhook gets: processPaymentWorkflow completes the cart
 * (or, for a point-of-sale request, finds the payment already recorded). Run top level so that it
 * takes the cart lock itself.
 */
async function processAsWebhook(container: MedusaContainer, context: PayLaterSessionContext): Promise<void> {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE)
  const { errors } = await engine.run(processPaymentWorkflowId, {
    input: {
      action: PaymentActions.AUTHORIZED,
      data: { session_id: context.session_id, amount: context.session_data.amount ?? 0 },
    },
    throwOnError: false,
  })
  if (errors?.length) {
    const message = (errors[0].error as { message?: string } | undefined)?.message ?? "unknown error"
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: processing paid session ${context.session_id} failed: ${message}`)
  }
}

export interface RefreshOptions {
  /**
   * Ask PayLater even when our own clock says the link or request has expired (past the grace) but
   * PayLater has not confirmed the end: a payment made in its last minute, whose webhook was lost,
   * is still found. The reconciliation job sets it; screens keep the clock's answer.
   */
  askPastExpiry?: boolean
}

/** PayLater itself said the payment failed or expired (not merely our clock). */
function endConfirmed(context: PayLaterSessionContext): boolean {
  return (
    context.session_data.paylater_status_code === 3 ||
    context.session_status === "error" ||
    context.session_status === "canceled"
  )
}

/**
 * Refreshes a session that is not settled yet. `throttleSeconds` null refreshes now (an admin
 * action); otherwise at most once per interval. True when PayLater was asked.
 */
export async function refreshSessionFromPayLater(
  container: MedusaContainer,
  context: PayLaterSessionContext,
  throttleSeconds: number | null,
  options: RefreshOptions = {}
): Promise<boolean> {
  const state = decidePaymentState(context, new Date())
  const unconfirmedExpiry = state.status === "expired" && !endConfirmed(context)
  if (isSettled(state) && !(options.askPastExpiry && unconfirmedExpiry)) {
    if (state.status === "paid" && context.for_order && context.order_id) {
      // Heals a point-of-sale payment a webhook settled before its order transaction was recorded.
      await recordOrderCaptures(container, context.session_id, context.order_id)
    }
    return false
  }
  if (throttleSeconds !== null && !(await takeRefreshSlot(container, context.session_id, throttleSeconds))) {
    return false
  }
  if (await authorizeUnderLock(container, context)) {
    await processAsWebhook(container, context)
  }
  if (context.for_order && context.order_id) {
    // Whoever authorized (this refresh or a webhook beside it), the order must know of the capture.
    await recordOrderCaptures(container, context.session_id, context.order_id)
  }
  return true
}

/**
 * A verified `success` notification for a point-of-sale session: the same authorization Medusa's
 * pipeline runs (idempotent, under the collection lock), then the order transaction it leaves out.
 */
export async function settleOrderSession(container: MedusaContainer, context: PayLaterSessionContext): Promise<void> {
  if (!context.for_order || !context.order_id) {
    return
  }
  await authorizeUnderLock(container, context)
  await recordOrderCaptures(container, context.session_id, context.order_id)
}

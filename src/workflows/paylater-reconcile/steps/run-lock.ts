import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/** One reconciliation run at a time: per process with the in-memory locking module, per store with locking-redis. */
export const RECONCILE_LOCK_KEY = "paylater:reconcile"

export const acquirePayLaterReconcileLockStepId = "acquire-paylater-reconcile-lock"

/**
 * Takes the run lock without waiting: a run that finds it taken ends at once (another instance, or
 * the previous run, is doing the work). The lock expires on its own if the process dies mid-run.
 */
export const acquirePayLaterReconcileLockStep = createStep(
  acquirePayLaterReconcileLockStepId,
  async (input: { ttl_seconds: number }, { container }) => {
    const ownerId = `paylater-reconcile:${randomUUID()}`
    try {
      await container.resolve(Modules.LOCKING).acquire(RECONCILE_LOCK_KEY, { ownerId, expire: input.ttl_seconds })
    } catch {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .debug?.("PayLater reconciliation: another run holds the lock; skipping this one")
      return new StepResponse({ owner_id: null as string | null }, null as string | null)
    }
    return new StepResponse({ owner_id: ownerId as string | null }, ownerId as string | null)
  },
  async (ownerId, { container }) => {
    if (ownerId) {
      await container.resolve(Modules.LOCKING).release(RECONCILE_LOCK_KEY, { ownerId })
    }
  }
)

export const releasePayLaterReconcileLockStepId = "release-paylater-reconcile-lock"

export const releasePayLaterReconcileLockStep = createStep(
  releasePayLaterReconcileLockStepId,
  async (input: { owner_id: string | null }, { container }) => {
    if (input.owner_id) {
      await container.resolve(Modules.LOCKING).release(RECONCILE_LOCK_KEY, { ownerId: input.owner_id })
    }
    return new StepResponse(undefined)
  }
)

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileSession, reconcileTombstone } from "../process"
import { readRegistrations, registrationIdOf } from "../registrations"
import { idOf, payLaterLooksDown, runPool, type Candidate, type Outcome } from "../select"

export interface ReconcileBatchInput {
  batch: Candidate[]
  concurrency: number
  /** No new payment is started after this many milliseconds (those in flight finish). */
  budget_ms: number
}

export interface ReconcileResult {
  id: string
  kind: Candidate["kind"]
  outcome: Outcome
}

export interface ReconcileBatchOutput {
  results: ReconcileResult[]
  /** Why the run ended before its batch did, if it did. */
  stopped: "paylater_unavailable" | "time_budget" | null
  not_started: number
}

export const reconcilePayLaterBatchStepId = "reconcile-paylater-batch"

/**
 * Asks PayLater about each payment of the batch, a few at a time, and processes the answer as a
 * webhook would. Stops early when PayLater keeps failing or the run's time budget is spent; what is
 * left is picked up by the next run. Every effect is idempotent, so nothing is undone on failure.
 */
export const reconcilePayLaterBatchStep = createStep(
  reconcilePayLaterBatchStepId,
  async (input: ReconcileBatchInput, { container }) => {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    if (!input.batch.length) {
      return new StepResponse<ReconcileBatchOutput>({ results: [], stopped: null, not_started: 0 })
    }
    // Read here, not passed between steps: the options hold the client secret, and step results are stored.
    const registrations = new Map((await readRegistrations(container)).map((r) => [r.id, r.options]))
    const deadline = Date.now() + input.budget_ms
    let stopped: ReconcileBatchOutput["stopped"] = null

    const work = async (candidate: Candidate): Promise<Outcome> => {
      try {
        if (candidate.kind === "session") {
          return await reconcileSession(container, candidate)
        }
        const registrationId = registrationIdOf(candidate.tombstone.provider_id)
        return await reconcileTombstone(container, candidate, registrations.get(registrationId) ?? null, registrationId)
      } catch (error) {
        logger.warn(
          `PayLater reconciliation: ${candidate.kind} ${idOf(candidate)} failed (${error instanceof Error ? error.message : String(error)}); retried next run`
        )
        return "unavailable"
      }
    }
    const pool = await runPool(input.batch, input.concurrency, work, (done) => {
      if (payLaterLooksDown(done)) {
        stopped = "paylater_unavailable"
        return true
      }
      if (Date.now() >= deadline) {
        stopped = "time_budget"
        return true
      }
      return false
    })
    if (stopped === "paylater_unavailable") {
      logger.warn(
        `PayLater reconciliation: PayLater did not answer ${pool.results.length} status checks in a row; ${pool.notStarted.length} payments left for the next run`
      )
    }
    return new StepResponse<ReconcileBatchOutput>({
      results: pool.results.map(({ item, result }) => ({ id: idOf(item), kind: item.kind, outcome: result })),
      stopped,
      not_started: pool.notStarted.length,
    })
  }
)

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { loadSessionCandidates, loadTombstoneCandidates } from "../candidates"
import { readRegistrations, runSettings } from "../registrations"
import { selectBatch, type Candidate } from "../select"

export interface SelectReconcileBatchInput {
  /** Null: the run lock was not taken, nothing is selected. */
  owner_id: string | null
  lookback_minutes?: number
  batch_size?: number
  concurrency?: number
}

export interface ReconcileBatch {
  lookback_minutes: number
  batch_size: number
  concurrency: number
  eligible: number
  deferred: number
  batch: Candidate[]
}

export const selectPayLaterReconcileBatchStepId = "select-paylater-reconcile-batch"

/** Lists what may need PayLater's answer and picks this run's batch (select.ts has the rules). */
export const selectPayLaterReconcileBatchStep = createStep(
  selectPayLaterReconcileBatchStepId,
  async (input: SelectReconcileBatchInput, { container }) => {
    const registrations = await readRegistrations(container)
    const settings = runSettings(registrations)
    const lookback = input.lookback_minutes ?? settings.lookbackMinutes
    const batchSize = input.batch_size ?? settings.batchSize
    const concurrency = input.concurrency ?? settings.concurrency
    const empty: ReconcileBatch = {
      lookback_minutes: lookback,
      batch_size: batchSize,
      concurrency,
      eligible: 0,
      deferred: 0,
      batch: [],
    }
    if (!input.owner_id || !registrations.length) {
      return new StepResponse(empty)
    }
    const now = new Date()
    const since = new Date(now.getTime() - lookback * 60_000)
    const providerIds = registrations.flatMap((r) => r.provider_ids)
    const [sessions, tombstones] = await Promise.all([
      loadSessionCandidates(container, providerIds, since),
      loadTombstoneCandidates(container, since),
    ])
    const selection = selectBatch({ sessions, tombstones, now, lookbackMinutes: lookback, batchSize })
    return new StepResponse({ ...empty, ...selection })
  }
)

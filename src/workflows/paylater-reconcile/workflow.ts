import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { loadAttemptCandidates, loadSessionCandidates } from "../../reconciliation/candidates"
import { reconcileAttempt, reconcileSession } from "../../reconciliation/reconcile-payment"
import { idOf, payLaterLooksDown, runPool, selectBatch, type Candidate, type Outcome } from "../../reconciliation/select"
import { readRegistrations, runSettings } from "../../medusa-records/registrations"
import { noteSettlementFailure } from "../../reconciliation/settlement-failures"
import { callPacer, callsPerRun, takeCallSlot } from "../../reconciliation/call-budget"
import { logRef } from "../../lib/paylater"

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

export interface SelectReconcileBatchInput {
  /** Null: the run lock was not taken, nothing is selected. */
  owner_id: string | null
  lookback_minutes?: number
  batch_size?: number
  concurrency?: number
  max_calls_per_minute?: number
  /** The run's time bound: with the per-minute budget, how many calls this run can make. */
  budget_ms: number
}

export interface ReconcileBatch {
  lookback_minutes: number
  batch_size: number
  concurrency: number
  max_calls_per_minute: number
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
    const concurrency = input.concurrency ?? settings.concurrency
    const maxCallsPerMinute = input.max_calls_per_minute ?? settings.maxCallsPerMinute
    // No more rows than the run's call budget can ask about: the rest stay due, oldest first, for the next run.
    const batchSize = Math.min(input.batch_size ?? settings.batchSize, callsPerRun(maxCallsPerMinute, input.budget_ms))
    const empty: ReconcileBatch = {
      lookback_minutes: lookback,
      batch_size: batchSize,
      concurrency,
      max_calls_per_minute: maxCallsPerMinute,
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
    const sessions = await loadSessionCandidates(container, providerIds, since)
    const attempts = await loadAttemptCandidates(container, sessions, since)
    const selection = selectBatch({ sessions, attempts, now, lookbackMinutes: lookback, batchSize })
    return new StepResponse({ ...empty, ...selection })
  }
)

export interface ReconcileBatchInput {
  batch: Candidate[]
  concurrency: number
  /** Status calls start evenly spread, at most this many a minute (call-budget.ts). */
  max_calls_per_minute: number
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
    const deadline = Date.now() + input.budget_ms
    const pacer = callPacer(input.max_calls_per_minute, Date.now())
    let stopped: ReconcileBatchOutput["stopped"] = null

    const work = async (candidate: Candidate): Promise<Outcome> => {
      try {
        if (candidate.kind === "session") {
          return await reconcileSession(container, candidate)
        }
        return await reconcileAttempt(container, candidate)
      } catch (error) {
        logger.warn(
          `PayLater reconciliation: ${candidate.kind} ${logRef(idOf(candidate))} failed (${error instanceof Error ? error.message : String(error)}); retried next run`
        )
        // Counted on the row; one that keeps failing is listed for a person, never dropped.
        await noteSettlementFailure(container, candidate.kind === "session" ? candidate.attempt?.paylater_order_id : candidate.attempt.paylater_order_id, error).catch(() => undefined)
        return "error"
      }
    }
    const pool = await runPool(input.batch, input.concurrency, work, async (done) => {
      if (payLaterLooksDown(done)) {
        stopped = "paylater_unavailable"
        return true
      }
      const slot = takeCallSlot(pacer, Date.now())
      if (slot >= deadline) {
        stopped = "time_budget"
        return true
      }
      if (slot > Date.now()) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()))
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

export interface PayLaterReconcileInput {
  /** Overrides of the provider options reconcileLookbackMinutes / reconcileBatchSize / reconcileConcurrency / reconcileMaxCallsPerMinute. */
  lookback_minutes?: number
  batch_size?: number
  concurrency?: number
  max_calls_per_minute?: number
  /** No new PayLater check starts after this long (default 100 s, under the 2-minute schedule). */
  budget_ms?: number
}

export interface PayLaterReconcileResult {
  /** False when another run held the lock: this one did nothing. */
  ran: boolean
  lookback_minutes: number
  batch_size: number
  /** Payments that needed PayLater's answer; `deferred` of them wait for the next run. */
  eligible: number
  deferred: number
  results: ReconcileResult[]
  stopped: "paylater_unavailable" | "time_budget" | null
  not_started: number
}

export const DEFAULT_RECONCILE_BUDGET_MS = 100_000
/** Past the budget, a check in flight may still take its own timeouts and retries. */
const LOCK_SLACK_SECONDS = 150

export const payLaterReconcileWorkflowId = "paylater-reconcile"

/**
 * "Never lose a paid order": asks PayLater about the payments no webhook has settled and processes
 * each answer exactly as its webhook would have been (success → order placed and captured through
 * processPaymentWorkflow; failed/expired → session closed with the reason), and reports deleted
 * sessions PayLater says were paid. Safe beside webhooks, return routes, polls and other runs: one
 * run holds the run lock, and each payment is processed under its cart's lock.
 */
export const payLaterReconcileWorkflow = createWorkflow(payLaterReconcileWorkflowId, (input: PayLaterReconcileInput) => {
  const budget = transform({ input }, ({ input }) => input.budget_ms ?? DEFAULT_RECONCILE_BUDGET_MS)
  const ttl = transform({ budget }, ({ budget }) => Math.ceil(budget / 1000) + LOCK_SLACK_SECONDS)
  const lock = acquirePayLaterReconcileLockStep({ ttl_seconds: ttl })
  const selected = selectPayLaterReconcileBatchStep(
    transform({ input, lock, budget }, ({ input, lock, budget }) => ({
      owner_id: lock.owner_id,
      lookback_minutes: input.lookback_minutes,
      batch_size: input.batch_size,
      concurrency: input.concurrency,
      max_calls_per_minute: input.max_calls_per_minute,
      budget_ms: budget,
    }))
  )
  const done = reconcilePayLaterBatchStep(
    transform({ selected, budget }, ({ selected, budget }) => ({
      batch: selected.batch,
      concurrency: selected.concurrency,
      max_calls_per_minute: selected.max_calls_per_minute,
      budget_ms: budget,
    }))
  )
  releasePayLaterReconcileLockStep({ owner_id: lock.owner_id })
  const result = transform({ lock, selected, done }, ({ lock, selected, done }): PayLaterReconcileResult => ({
    ran: !!lock.owner_id,
    lookback_minutes: selected.lookback_minutes,
    batch_size: selected.batch_size,
    eligible: selected.eligible,
    deferred: selected.deferred,
    results: done.results,
    stopped: done.stopped,
    not_started: done.not_started,
  }))
  return new WorkflowResponse(result)
})

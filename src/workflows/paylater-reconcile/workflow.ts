import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcilePayLaterBatchStep, type ReconcileResult } from "./steps/reconcile-batch"
import { acquirePayLaterReconcileLockStep, releasePayLaterReconcileLockStep } from "./steps/run-lock"
import { selectPayLaterReconcileBatchStep } from "./steps/select-batch"

export interface PayLaterReconcileInput {
  /** Overrides of the provider options reconcileLookbackMinutes / reconcileBatchSize / reconcileConcurrency. */
  lookback_minutes?: number
  batch_size?: number
  concurrency?: number
  /** No new PayLater check starts after this long (default 90 s, under the 2-minute schedule). */
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

export const DEFAULT_RECONCILE_BUDGET_MS = 90_000
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
    transform({ input, lock }, ({ input, lock }) => ({
      owner_id: lock.owner_id,
      lookback_minutes: input.lookback_minutes,
      batch_size: input.batch_size,
      concurrency: input.concurrency,
    }))
  )
  const done = reconcilePayLaterBatchStep(
    transform({ selected, budget }, ({ selected, budget }) => ({
      batch: selected.batch,
      concurrency: selected.concurrency,
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

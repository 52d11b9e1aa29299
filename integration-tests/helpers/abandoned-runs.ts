/**
 * After each test, before Medusa's runner waits for every workflow execution to end: a cart
 * completion Medusa's workflow engine abandoned part-way is marked failed in the engine's records.
 *
 * Why: under load the engine can give a `completeCartWorkflow` run up part-way (issue 46,
 * src/medusa-effects/abandoned-completion.ts: a step's state change refused, thrown out of
 * `engine.run`); the plugin finishes that run's rollback itself, but the run's execution record keeps
 * its last non-final state for good. Medusa's `waitWorkflowExecutions` (its runner's `afterEach`) then
 * waits for it forever and fails the test after 60 s, although the test's own checks of the money
 * passed (seen in CI: "Timeout waiting for workflow executions to finish" after a sold-out cart's
 * completion). Only completion runs are released, and only after they stayed unfinished as long as
 * Medusa's own wait allows; any other unfinished run is left to that wait (and fails the test), named
 * here first so a red run says which.
 */
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

const FINAL_STATES = ["not_started", "done", "reverted", "failed"]
const COMPLETION_WORKFLOW = "complete-cart"
/** Under Medusa's own 60 s, so its wait still runs after this and finds nothing left. */
const WAIT_MS = 40_000
const POLL_MS = 100

interface Execution {
  id: string
  workflow_id: string
  transaction_id: string
  state: string
}

interface ExecutionStore {
  listWorkflowExecutions(filters: object): Promise<Execution[]>
  updateWorkflowExecutions(update: { selector: { id: string[] }; data: { state: string } }): Promise<unknown>
}

export async function releaseAbandonedCompletions(container: MedusaContainer): Promise<void> {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE, { allowUnregistered: true }) as unknown as ExecutionStore | undefined
  if (!engine) return
  const deadline = Date.now() + WAIT_MS
  let running = await engine.listWorkflowExecutions({ state: { $nin: FINAL_STATES } })
  while (running.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    running = await engine.listWorkflowExecutions({ state: { $nin: FINAL_STATES } })
  }
  if (!running.length) return
  const named = running.map((e) => `${e.workflow_id} ${e.transaction_id} (${e.state})`).join(", ")
  const abandoned = running.filter((e) => e.workflow_id === COMPLETION_WORKFLOW)
  console.warn(
    `[test] workflow runs still unfinished ${WAIT_MS / 1000} s after the test: ${named}.` +
      (abandoned.length ? ` Marked failed: the ${abandoned.length} cart completion run(s) the engine abandoned (issue 46).` : "")
  )
  if (abandoned.length) await engine.updateWorkflowExecutions({ selector: { id: abandoned.map((e) => e.id) }, data: { state: "failed" } })
}

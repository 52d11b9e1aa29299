/**
 * Observes Medusa's payment-webhook pipeline: every verified notification ends in one run of
 * processPaymentWorkflow (after the event bus delay). Tests wait for those runs to finish instead of
 * sleeping, then assert the ledger.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { processPaymentWorkflowId } from "@medusajs/core-flows"
import { eventually } from "./ledger"

export interface PipelineWatch {
  finished(): number
  failed(): number
  waitForFinished(n: number): Promise<void>
  stop(): Promise<void>
}

export async function watchProcessPayment(container: MedusaContainer): Promise<PipelineWatch> {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE)
  let finished = 0
  let failed = 0
  const subscriberId = `paylater-test-${Date.now()}-${Math.random()}`
  const subscriber = (event: { eventType: string; errors?: unknown[] }) => {
    if (event.eventType === "onFinish") {
      finished += 1
      if (event.errors?.length) failed += 1
    }
  }
  await engine.subscribe({ workflowId: processPaymentWorkflowId, subscriber, subscriberId } as never)
  return {
    finished: () => finished,
    failed: () => failed,
    async waitForFinished(n) {
      await eventually(async () => finished, (v) => v >= n)
    },
    async stop() {
      await engine.unsubscribe({ workflowId: processPaymentWorkflowId, subscriberOrId: subscriberId } as never)
    },
  }
}

/**
 * Observes settlements of paid PayLater payments: every verified `success` notification (either
 * webhook route, after the event bus delay), and every poll, admin check or reconciliation that
 * PayLater answered "paid", ends in one settlement, announced as `paylater.payment_settled`
 * (outcome "error" when it threw). Tests wait for those to finish instead of sleeping, then assert
 * the ledger. Refused (forged, malformed) notifications never get this far.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { PAYLATER_PAYMENT_SETTLED_EVENT } from "../../../src/settlement/settle"
import { webhookSlots } from "../../../src/signal-handlers/webhook-slots"
import { eventually } from "./ledger"

export interface PipelineWatch {
  finished(): number
  failed(): number
  waitForFinished(n: number): Promise<void>
  stop(): Promise<void>
}

/** The webhook settlements (turns of the process's webhook limiter) ended so far. */
export function webhookTurnsEnded(): number {
  return webhookSlots().completed
}

/**
 * Waits until `n` webhook settlements ended after `since` (webhookTurnsEnded) and none is running or
 * waiting. For a race where a webhook's settlement may find the session busy: it then answers from
 * the records and announces nothing (the other signal settles the money), so counting announcements
 * cannot tell when it is over.
 */
export async function waitForWebhookTurns(since: number, n: number): Promise<void> {
  await eventually(
    async () => webhookSlots(),
    (turns) => turns.completed >= since + n && turns.running === 0 && turns.waiting === 0
  )
}

export async function watchProcessPayment(container: MedusaContainer): Promise<PipelineWatch> {
  const bus = container.resolve(Modules.EVENT_BUS)
  let finished = 0
  let failed = 0
  const subscriberId = `paylater-test-${Date.now()}-${Math.random()}`
  const subscriber = async (event: { data?: { outcome?: string } }) => {
    finished += 1
    if (event.data?.outcome === "error") failed += 1
  }
  bus.subscribe(PAYLATER_PAYMENT_SETTLED_EVENT, subscriber as never, { subscriberId })
  return {
    finished: () => finished,
    failed: () => failed,
    async waitForFinished(n) {
      try {
        await eventually(async () => finished, (v) => v >= n)
      } catch (error) {
        // Whether the missing settlement waited for a turn (issue 43's flake in paylater-faults' concurrency test).
        const turns = webhookSlots()
        throw new Error(
          `${(error as Error).message} (${finished} of ${n} settlements finished; webhook settlement turns: ` +
            `${turns.running} running, ${turns.waiting} waiting, ${turns.completed} completed, limit ${turns.size})`
        )
      }
    },
    async stop() {
      bus.unsubscribe(PAYLATER_PAYMENT_SETTLED_EVENT, subscriber as never, { subscriberId })
    },
  }
}

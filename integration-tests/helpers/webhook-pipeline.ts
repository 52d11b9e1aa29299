/**
 * Waits for Medusa's payment-webhook pipeline to go quiet, including when nothing should happen.
 *
 * Both webhook routes (ours after verification, Medusa's /hooks/payment for everything) emit
 * `payment.webhook_received` with a delay; Medusa's subscriber then asks the provider and maybe
 * runs processPaymentWorkflow. Counting processPaymentWorkflow runs cannot prove that a forged
 * notification did nothing (zero runs is also what "not processed yet" looks like), so this counts
 * the events emitted and the subscriber runs that have finished (processPaymentWorkflow included):
 * `drain()` returns once every emitted event has been fully handled.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"

const CORE_SUBSCRIBER_ID = "payment-webhook-handler"

type Listener = ((data: unknown) => Promise<void>) & { subscriberId?: string }

interface LocalEventBus {
  emit(data: unknown, options?: unknown): Promise<void>
  eventEmitter_?: {
    listeners(name: string): Listener[]
    on(name: string, l: Listener): void
    off(name: string, l: Listener): void
  }
}

export interface WebhookPipelineWatch {
  /** `payment.webhook_received` events emitted since the watch started. */
  emitted(): number
  /** Of those, how many Medusa's subscriber has finished handling (successfully or not). */
  handled(): number
  /** Resolves once handled() catches up with emitted(); fails after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>
  stop(): void
}

function namesOf(data: unknown): string[] {
  const events = Array.isArray(data) ? data : [data]
  return events.map((e) => (e && typeof e === "object" ? String((e as { name?: unknown }).name) : ""))
}

export function watchWebhookPipeline(container: MedusaContainer): WebhookPipelineWatch {
  const name = PaymentWebhookEvents.WebhookReceived
  const bus = container.resolve(Modules.EVENT_BUS) as unknown as LocalEventBus
  const emitter = bus.eventEmitter_
  const original = emitter?.listeners(name).find((l) => l.subscriberId === CORE_SUBSCRIBER_ID)
  if (!emitter || !original) {
    throw new Error(`watchWebhookPipeline needs the local event bus with Medusa's "${CORE_SUBSCRIBER_ID}" subscriber`)
  }
  let emitted = 0
  let handled = 0

  const ownEmit = Object.prototype.hasOwnProperty.call(bus, "emit")
  const emit = bus.emit
  bus.emit = async function (this: unknown, data: unknown, options?: unknown) {
    emitted += namesOf(data).filter((n) => n === name).length
    return emit.call(bus, data, options)
  }

  const counted: Listener = async (data) => {
    try {
      await original(data)
    } finally {
      handled += 1
    }
  }
  counted.subscriberId = CORE_SUBSCRIBER_ID
  emitter.off(name, original)
  emitter.on(name, counted)

  return {
    emitted: () => emitted,
    handled: () => handled,
    async drain(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      while (handled < emitted) {
        if (Date.now() > until) {
          throw new Error(`webhook pipeline not drained: ${handled} of ${emitted} events handled`)
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    stop() {
      emitter.off(name, counted)
      emitter.on(name, original)
      if (ownEmit) bus.emit = emit
      else delete (bus as { emit?: unknown }).emit
    },
  }
}

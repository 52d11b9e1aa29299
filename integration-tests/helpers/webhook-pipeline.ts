/**
 * Waits for the webhook pipeline to go quiet, including when nothing should happen.
 *
 * Our route queues `paylater.webhook_received` after verification; Medusa's /hooks/payment route
 * emits `payment.webhook_received` for everything. Both are delayed; the plugin's subscriber then
 * verifies and settles (and, for the core event, Medusa's own subscriber asks the provider, which
 * refuses forged bodies). Counting settlements cannot prove that a forged notification did
 * nothing (zero is also what "not processed yet" looks like), so this counts the events emitted and
 * the events every subscriber has finished handling: `drain()` returns once each emitted event has
 * been fully handled.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"

const CORE_SUBSCRIBER_ID = "payment-webhook-handler"
const PLUGIN_SUBSCRIBER_ID = "paylater-webhook"
const PLUGIN_EVENT = "paylater.webhook_received"

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
  /** Webhook events (either route's) emitted since the watch started. */
  emitted(): number
  /** Of those, how many every subscriber has finished handling (successfully or not). */
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
  const coreEvent = PaymentWebhookEvents.WebhookReceived
  const names = [coreEvent, PLUGIN_EVENT]
  const bus = container.resolve(Modules.EVENT_BUS) as unknown as LocalEventBus
  const emitter = bus.eventEmitter_
  const find = (name: string, id: string) => emitter?.listeners(name).find((l) => l.subscriberId === id)
  const watched: Array<{ name: string; id: string }> = [
    { name: coreEvent, id: CORE_SUBSCRIBER_ID },
    { name: coreEvent, id: PLUGIN_SUBSCRIBER_ID },
    { name: PLUGIN_EVENT, id: PLUGIN_SUBSCRIBER_ID },
  ]
  const originals = watched.map((w) => find(w.name, w.id))
  if (!emitter || originals.some((o) => !o)) {
    throw new Error(`watchWebhookPipeline needs the local event bus with the "${CORE_SUBSCRIBER_ID}" and "${PLUGIN_SUBSCRIBER_ID}" subscribers`)
  }
  let emitted = 0
  const done = watched.map(() => 0)

  const ownEmit = Object.prototype.hasOwnProperty.call(bus, "emit")
  const emit = bus.emit
  bus.emit = async function (this: unknown, data: unknown, options?: unknown) {
    emitted += namesOf(data).filter((n) => names.includes(n)).length
    return emit.call(bus, data, options)
  }

  const counted = watched.map((w, i) => {
    const original = originals[i]!
    const wrapped: Listener = async (data) => {
      try {
        await original(data)
      } finally {
        done[i] += 1
      }
    }
    wrapped.subscriberId = w.id
    emitter.off(w.name, original)
    emitter.on(w.name, wrapped)
    return wrapped
  })
  // A core event is handled once both its subscribers are done; a plugin event once ours is.
  const handled = () => Math.min(done[0], done[1]) + done[2]

  return {
    emitted: () => emitted,
    handled,
    async drain(timeoutMs = 60_000) {
      // The monotonic clock: inside atStoreTime the store's `Date` stands still.
      const until = performance.now() + timeoutMs
      while (handled() < emitted) {
        if (performance.now() > until) {
          throw new Error(`webhook pipeline not drained: ${handled()} of ${emitted} events handled`)
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    stop() {
      watched.forEach((w, i) => {
        emitter.off(w.name, counted[i])
        emitter.on(w.name, originals[i]!)
      })
      if (ownEmit) bus.emit = emit
      else delete (bus as { emit?: unknown }).emit
    },
  }
}

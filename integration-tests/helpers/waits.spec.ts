/**
 * The helpers tests wait with give up on the monotonic clock: inside atStoreTime the store's `Date`
 * stands still (jest's fake Date, not advancing), so a deadline read off `Date.now()` never comes and
 * a failing wait hangs until jest's own timeout, without the helper's message (what was last seen).
 * No Medusa app: a fake event bus stands in for the one the pipeline watch wraps.
 */
import { EventEmitter } from "node:events"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { atStoreTime } from "./store-clock"
import { watchWebhookPipeline } from "./webhook-pipeline"
import { eventually } from "../http/paylater-link/ledger"

// Far under jest's 5 s: a wait that does not give up on its own fails this file's tests by timeout.
const GIVE_UP_MS = 300

describe("waits inside atStoreTime (the store's Date standing still)", () => {
  it("the store's Date does stand still there", async () => {
    await atStoreTime(60_000, async () => {
      const before = Date.now()
      await new Promise((r) => setTimeout(r, 50))
      expect(Date.now()).toBe(before)
    })
  })

  it("eventually() gives up after its timeout with the last value", async () => {
    await expect(atStoreTime(60_000, () => eventually(async () => 1, (v) => v > 1, GIVE_UP_MS))).rejects.toThrow("condition not reached; last value 1")
  })

  it("the webhook pipeline's drain() gives up after its timeout with the counts", async () => {
    const emitter = new EventEmitter()
    const never: Array<() => void> = []
    const listener = (id: string) => Object.assign(() => new Promise<void>((resolve) => void never.push(resolve)), { subscriberId: id })
    emitter.on(PaymentWebhookEvents.WebhookReceived, listener("payment-webhook-handler"))
    emitter.on(PaymentWebhookEvents.WebhookReceived, listener("paylater-webhook"))
    emitter.on("paylater.webhook_received", listener("paylater-webhook"))
    const bus = {
      eventEmitter_: emitter,
      async emit(data: { name: string }) {
        emitter.emit(data.name, data)
      },
    }
    const container = { resolve: () => bus } as unknown as MedusaContainer
    const watch = watchWebhookPipeline(container)
    try {
      await (bus as { emit(d: unknown): Promise<void> }).emit({ name: "paylater.webhook_received" })
      expect(watch.emitted()).toBe(1)
      await expect(atStoreTime(60_000, () => watch.drain(GIVE_UP_MS))).rejects.toThrow("webhook pipeline not drained: 0 of 1 events handled")
    } finally {
      watch.stop()
      never.forEach((resolve) => resolve())
    }
  })
})

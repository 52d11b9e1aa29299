import type { MedusaContainer } from "@medusajs/framework/types"
import { takeStatusSlotIn } from "../../../limits/status-slot"
import type { StatusSlotPort } from "../ledger-port"
import { AttentionList } from "./attention-list"

/**
 * The status-call slots (src/limits/status-slot.ts) for the payment provider, which cannot resolve
 * them itself: this module's container holds the same Medusa configuration and database connection
 * the app's does, so the slot taken here is the one settlement takes for the same session, in the
 * same store (Redis, or Medusa's PostgreSQL), across instances.
 */
export class StatusSlots extends AttentionList implements StatusSlotPort {
  private slotContainer_: MedusaContainer | undefined

  async takeStatusSlot(sessionId: string, seconds: number): Promise<boolean> {
    return takeStatusSlotIn(this.slotContainer(), sessionId, seconds)
  }

  /** The module's container as the limit store reads it (`resolve`); one object, so one store per module. */
  private slotContainer(): MedusaContainer {
    if (!this.slotContainer_) {
      // MedusaService keeps the container it was built with (an Awilix cradle, which throws for
      // unregistered names: the limit store reads every name as optional).
      const cradle = (this as unknown as { __container__: Record<string, unknown> }).__container__
      this.slotContainer_ = { resolve: (key: string) => cradle[key] } as unknown as MedusaContainer
    }
    return this.slotContainer_
  }
}

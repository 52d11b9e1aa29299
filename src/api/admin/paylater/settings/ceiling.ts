import type { MedusaContainer } from "@medusajs/framework/types"
import { ceilingRefusals, type CeilingRefusals } from "../../../../limits/ceiling-refusals"
import { countersOf } from "../../../../limits/store"
import type { PayLaterRegistration } from "../../../../medusa-records/registrations"

export interface StoreCeiling extends Partial<CeilingRefusals> {
  /** startLimitPerMinute as configured (the first configured registration's; they share one counter). */
  per_minute: number | null
  /** The budgets' store could not be read (e.g. Redis down): the refusals are unknown, not zero. */
  error: string | null
}

/** The store-wide ceiling and its refusals, for Settings → PayLater (src/limits/ceiling-refusals.ts). */
export async function storeCeiling(container: MedusaContainer, registrations: PayLaterRegistration[], now: Date): Promise<StoreCeiling> {
  const per_minute = registrations.find((r) => r.options)?.options?.limits.startsPerStore.max ?? null
  try {
    return { per_minute, error: null, ...(await ceilingRefusals(await countersOf(container), now)) }
  } catch (error) {
    return { per_minute, error: (error as Error)?.message ?? String(error) }
  }
}

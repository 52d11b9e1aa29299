import type { MedusaContainer } from "@medusajs/framework/types"
import { countersOf } from "./store"

/**
 * One status call per PayLater order or session per interval, counted in the same store as the
 * budgets (store.ts), so concurrent callers, even on several servers, ask PayLater once per interval.
 * False when this interval's call is already taken, or when the store cannot be reached (then
 * nobody asks now; the next signal or the reconciliation job will).
 */
export async function takeStatusSlotIn(container: MedusaContainer, name: string, seconds: number): Promise<boolean> {
  try {
    const counter = await countersOf(container)
    return (await counter.spend(`status:${name}`, { max: 1, windowSeconds: seconds })).ok
  } catch {
    return false
  }
}

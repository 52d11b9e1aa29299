import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYLATER_ACTIVITY_MODULE } from "./index"
import type { PayLaterActivityModuleService } from "./service"

/** The plugin's module from an app container, or null when the app runs without it. */
export function activityModuleOf(container: MedusaContainer): PayLaterActivityModuleService | null {
  try {
    return (container.resolve(PAYLATER_ACTIVITY_MODULE, { allowUnregistered: true }) as PayLaterActivityModuleService | undefined) ?? null
  } catch {
    return null
  }
}

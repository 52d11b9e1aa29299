import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYLATER_LEDGER_MODULE } from "./index"
import type { PayLaterLedgerModuleService } from "./service"

/** The plugin's module from an app container, or null when the app runs without it. */
export function ledgerModuleOf(container: MedusaContainer): PayLaterLedgerModuleService | null {
  try {
    return (container.resolve(PAYLATER_LEDGER_MODULE, { allowUnregistered: true }) as PayLaterLedgerModuleService | undefined) ?? null
  } catch {
    return null
  }
}

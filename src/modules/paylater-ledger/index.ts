import { Module } from "@medusajs/framework/utils"
import { PayLaterLedgerModuleService } from "./service"

/** Container key of the plugin's module (the attempt ledger and the records around it): `container.resolve(PAYLATER_LEDGER_MODULE)`. */
export const PAYLATER_LEDGER_MODULE = "paylater_ledger"

export default Module(PAYLATER_LEDGER_MODULE, { service: PayLaterLedgerModuleService })

export * from "./types"
export type { PayLaterLedgerModuleService }

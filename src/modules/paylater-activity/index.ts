import { Module } from "@medusajs/framework/utils"
import { PayLaterActivityModuleService } from "./service"

/** Container key of the activity module: `container.resolve(PAYLATER_ACTIVITY_MODULE)`. */
export const PAYLATER_ACTIVITY_MODULE = "paylater_activity"

export default Module(PAYLATER_ACTIVITY_MODULE, { service: PayLaterActivityModuleService })

export * from "./types"
export type { PayLaterActivityModuleService }

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"

/** The store's database connection: the reports read the ledger with aggregate SQL (src/funnel). */
export const knexOf = (container: MedusaContainer): Knex => container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex

/**
 * What a webhook could change, read straight from PostgreSQL: a before/after pair of these must be
 * equal whenever a notification is refused (or is a harmless repeat).
 *
 * Raw SQL on purpose: it sees every row, soft-deleted ones included, with no module filtering.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export interface PaymentState {
  orders: number
  payments: number
  captures: number
  refunds: number
  completedCarts: number
  /** `id status authorized?` for every payment session, sorted by id. */
  sessions: string[]
  /** `id status` for every payment collection, sorted by id. */
  collections: string[]
}

interface Knex {
  raw(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>
}

export async function paymentState(container: MedusaContainer): Promise<PaymentState> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as Knex
  const counts = await pg.raw(
    `select (select count(*) from "order") as orders,
            (select count(*) from payment) as payments,
            (select count(*) from capture) as captures,
            (select count(*) from refund) as refunds,
            (select count(*) from cart where completed_at is not null) as completed_carts`
  )
  const c = counts.rows[0]
  const sessions = await pg.raw(
    `select id, status, authorized_at is not null as authorized, deleted_at is not null as deleted
       from payment_session order by id`
  )
  const collections = await pg.raw(`select id, status from payment_collection order by id`)
  return {
    orders: Number(c.orders),
    payments: Number(c.payments),
    captures: Number(c.captures),
    refunds: Number(c.refunds),
    completedCarts: Number(c.completed_carts),
    sessions: sessions.rows.map(
      (r) => `${r.id} ${r.status}${r.authorized ? " authorized_at" : ""}${r.deleted ? " deleted" : ""}`
    ),
    collections: collections.rows.map((r) => `${r.id} ${r.status}`),
  }
}

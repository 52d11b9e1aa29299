import type { Context } from "@medusajs/framework/types"

/**
 * Raw SQL the service layers share. Medusa's generated CRUD cannot express an upsert that counts
 * repeats, nor serialise two writers on one key; these two can.
 */

/** The entity manager Medusa puts in `sharedContext.manager` (@InjectManager). */
export interface SqlManager {
  execute(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>
}

interface TransactionManager {
  getTransactionContext(): { raw(sql: string, params?: unknown[]): Promise<unknown> }
}

/**
 * Waits for, then holds until the transaction ends, PostgreSQL's advisory lock on `key`: every
 * instance of the app shares it, unlike an in-process lock. Needs @InjectTransactionManager.
 */
export async function advisoryLock(sharedContext: Context, key: string): Promise<void> {
  const knex = (sharedContext.transactionManager as unknown as TransactionManager).getTransactionContext()
  await knex.raw("select pg_advisory_xact_lock(hashtext(?))", [key])
}

/** Serialises the state changes of one attempt (two signals at once apply one after the other). */
export const lockAttemptOf = (sharedContext: Context, paylaterOrderId: string) => advisoryLock(sharedContext, `paylater-attempt:${paylaterOrderId}`)

/** Serialises everything that decides about one PayLater order's refunds, for this transaction. */
export const lockRefundsOf = (sharedContext: Context, paylaterOrderId: string) => advisoryLock(sharedContext, `paylater-refund:${paylaterOrderId}`)

/** Serialises two flags of the same thing for a person, so the second finds the first. */
export const lockAttentionKey = (sharedContext: Context, dedupeKey: string) => advisoryLock(sharedContext, `paylater-attention:${dedupeKey}`)

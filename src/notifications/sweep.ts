import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { audienceOf } from "./channels"
import { currentConditions } from "./conditions"
import { conditionNotice, planItemNotices, type Notice } from "./rules"
import { sendNotice } from "./send"

/**
 * Tells the merchant, through Medusa's Notification Module, what newly needs a person. Run after each
 * recovery run (src/job-runs/run-jobs.ts: Medusa's scheduler, or the watchdog standing in for
 * it), never on a payment's own path: a notification that fails delays no checkout, webhook or
 * refund. Reads the ledger, so nothing is lost to a crash:
 *
 * - items on Settings → PayLater's list not told about yet (`notified_at` null) are told once, when
 *   open and needing a person (rules.ts), then marked; a notification sent but not yet marked when
 *   the process stops is not sent twice (its idempotency key);
 * - the store's connection to PayLater (conditions.ts) is told once per episode, by its key.
 *
 * One process at a time (a lock); a second finds it taken and leaves the turn to the first.
 */

const LOCK_KEY = "paylater:notify"
const LOCK_SECONDS = 120
const HOUR_MS = 60 * 60_000
const WAITING_READ = 500

// Per process: the reason notifications are off is said once, a failing channel once.
const said = new Set<string>()
function sayOnce(container: MedusaContainer, key: string, level: "info" | "warn", line: string): void {
  if (said.has(key)) return
  said.add(key)
  container.resolve(ContainerRegistrationKeys.LOGGER)[level](line)
}

export interface SweepResult {
  /** Keys of the notices handed to the Notification Module. */
  sent: string[]
  /** Why nothing was sent, when notifications are off. */
  off: string | null
}

export async function notifyMerchant(container: MedusaContainer, now: Date = new Date()): Promise<SweepResult> {
  const ledger = ledgerModuleOf(container)
  const audience = audienceOf(container)
  if (!ledger) return { sent: [], off: "the paylater_ledger module is not loaded" }
  if (!audience.feed && !audience.emails.length) {
    const off = audience.off.join("; ") || "no channel"
    sayOnce(container, "off", "info", `PayLater notifications: off (${off}); what needs a person is on Settings → PayLater only`)
    return { sent: [], off }
  }
  for (const reason of audience.off) {
    sayOnce(container, `partly:${reason}`, "info", `PayLater notifications: ${reason}`)
  }
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `paylater-notify:${randomUUID()}`
  try {
    await locking.acquire(LOCK_KEY, { ownerId, expire: LOCK_SECONDS })
  } catch {
    return { sent: [], off: null }
  }
  try {
    return { sent: [...(await tellItems(container, audience, now)), ...(await tellConditions(container, audience, now))], off: null }
  } finally {
    await locking.release(LOCK_KEY, { ownerId }).catch(() => undefined)
  }
}

async function send(container: MedusaContainer, notice: Notice, audience: ReturnType<typeof audienceOf>) {
  const result = await sendNotice(container, notice, audience)
  const failed = result.failed
  if (failed) {
    sayOnce(container, `failed:${failed.split(":")[0]}`, "warn", `PayLater notifications: Medusa's Notification Module did not send one (${failed})`)
  }
  return result
}

async function tellItems(container: MedusaContainer, audience: ReturnType<typeof audienceOf>, now: Date): Promise<string[]> {
  const ledger = ledgerModuleOf(container)!
  const waiting = (await ledger.listPayLaterAttentions(
    { status: "open", notified_at: null },
    { order: { created_at: "ASC" }, take: WAITING_READ }
  )) as unknown as AttentionRecord[]
  if (!waiting.length) return []
  const [, toldLastHour] = await ledger.listAndCountPayLaterAttentions(
    { notified_at: { $gte: new Date(now.getTime() - HOUR_MS) } },
    { select: ["id"], take: 1 }
  )
  const sent: string[] = []
  for (const { notice, covered } of planItemNotices(waiting, toldLastHour, audience.adminUrl, now)) {
    // Still open? Resolved since it was read: never told.
    const ids = covered.map((i) => i.id)
    const stillOpen = (await ledger.listPayLaterAttentions({ id: ids, status: "open", notified_at: null }, { select: ["id"] })) as Array<{ id: string }>
    if (!stillOpen.length) continue
    if (!(await send(container, notice, audience)).sent) continue
    await ledger.updatePayLaterAttentions(stillOpen.map((i) => ({ id: i.id, notified_at: now })))
    sent.push(notice.key)
  }
  return sent
}

async function tellConditions(container: MedusaContainer, audience: ReturnType<typeof audienceOf>, now: Date): Promise<string[]> {
  const ledger = ledgerModuleOf(container)!
  const sent: string[] = []
  for (const condition of await currentConditions(container, ledger, now)) {
    const notice = conditionNotice(condition, audience.adminUrl)
    // Sent once per key by the module itself; a repeat of a condition still going on sends nothing.
    if ((await send(container, notice, audience)).created) sent.push(notice.key)
  }
  return sent
}

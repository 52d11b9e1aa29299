import { Modules } from "@medusajs/framework/utils"
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types"
import type { Audience } from "./channels"
import type { Notice } from "./rules"

/** The template id every PayLater notification carries (README section 7b documents its data). */
export const NOTIFICATION_TEMPLATE = "paylater-attention"

/** The notifications one notice makes: one on `feed` (every admin: `to` is empty), one per e-mail address. */
export function notificationsOf(notice: Notice, audience: Pick<Audience, "feed" | "emails">) {
  const data = {
    // What the admin's notification panel shows (its `title` and `description`).
    title: notice.title,
    description: `${notice.description}\n${notice.url}`,
    url: notice.url,
    case: notice.case,
    ...notice.facts,
  }
  const base = { template: NOTIFICATION_TEMPLATE, data, trigger_type: `paylater.${notice.case}`, resource_type: "paylater_attention" }
  return [
    ...(audience.feed ? [{ ...base, to: "", channel: "feed", idempotency_key: `paylater:${notice.key}:feed` }] : []),
    ...audience.emails.map((to) => ({ ...base, to, channel: "email", idempotency_key: `paylater:${notice.key}:email:${to}` })),
  ]
}

/**
 * Hands one notice to Medusa's Notification Module. Idempotent: each notification has a key made
 * from the notice's, which the module sends once (a repeat after a crash, before the sweep recorded
 * it, is not sent again). Answers whether any channel took it; a channel that failed is named in
 * `failed` (the module keeps its failed notification and sends it again on the next repeat).
 */
export async function sendNotice(
  container: MedusaContainer,
  notice: Notice,
  audience: Pick<Audience, "feed" | "emails">
): Promise<{ sent: boolean; created: number; failed: string | null }> {
  const service = container.resolve<INotificationModuleService>(Modules.NOTIFICATION)
  const all = notificationsOf(notice, audience)
  let sent = false
  let created = 0
  let failed: string | null = null
  // One call per notification: the module sends a batch all-or-error, and one bad address must not hold back the panel.
  for (const notification of all) {
    try {
      // The module answers with what it created: nothing for a key it already sent.
      const made = (await service.createNotifications([notification])) as unknown[]
      created += made.length
      sent = true
    } catch (error) {
      failed = `${notification.channel}: ${(error as Error)?.message ?? error}`.slice(0, 300)
    }
  }
  return { sent, created, failed }
}

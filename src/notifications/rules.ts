/**
 * What the merchant is told, and when: pure rules (facts in, messages out; the clock is an argument)
 * so every one is unit-tested. The sweep (sweep.ts) reads the facts and sends what these return.
 *
 * Never in a message: a full payment session id, PayLater order id or cart id (each is a key to the
 * shopper's cart: log-ref.ts), a mobile number, a token or a secret. Payments are named by their
 * short reference (logRef) and amount; the admin link leads to the rest.
 */
import { logRef } from "../lib/paylater/log-ref"
import { readPlan } from "../money-plan/refund-plan"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { ATTENTION_KIND_LABEL, CONDITION_LABEL, schedulerStalledSentence, type ConditionKind } from "./words"

/** One thing to tell, on every channel the store has. `key` is the same for the same thing, forever. */
export interface Notice {
  key: string
  /** What happened, in the words of Settings → PayLater (the feed's title, the e-mail's subject). */
  title: string
  /** What happened and what to do, in one or two sentences. */
  description: string
  /** Where in the admin to act: the order, or Settings → PayLater. */
  url: string
  /** Machine name of the case, for e-mail templates: see README section 7b. */
  case: string
  /** Public-safe facts for e-mail templates. */
  facts: Record<string, string | number | null>
}

/** At most this many notifications about items per hour; over it, one digest says how many wait. */
export const ITEM_NOTICES_PER_HOUR = 5
const HOUR_MS = 60 * 60_000

/** Where Settings → PayLater is, under the admin's URL. */
export const settingsUrl = (adminUrl: string) => `${adminUrl}/settings/paylater`
const orderUrl = (adminUrl: string, orderId: string) => `${adminUrl}/orders/${orderId}`

/**
 * Whether an item needs a person now. A payment paid without an order that the plugin will refund
 * by itself does not (yet): it does once the refund is held (the merchant's `hold`, or no
 * registration may send it) or PayLater kept refusing it. One whose refund got no answer is told
 * through the guard's own "Refund outcome unknown" item, not twice.
 */
export function needsPerson(item: AttentionRecord): boolean {
  if (item.status !== "open") return false
  if (item.kind !== "paid_without_order" && item.kind !== "orphaned") return true
  const plan = readPlan(item)
  return !plan || plan.state === "held" || plan.state === "stopped"
}

const amountText = (item: AttentionRecord) => (item.amount ? `${item.amount} QAR` : "an amount")
const ref = (item: AttentionRecord) => logRef(item.paylater_order_id)
const AFTER = " Settings → PayLater lists it with its actions."

/** The words for one item needing a person. */
export function itemNotice(item: AttentionRecord, adminUrl: string): Notice {
  const plan = readPlan(item)
  let kase: string = item.kind
  let description: string
  switch (item.kind) {
    case "paid_without_order":
    case "orphaned":
      if (plan?.state === "held" && plan.last_error) {
        kase = "refund_not_routable"
        description = `PayLater took ${amountText(item)} (payment ${ref(item)}) and no order holds it, and it cannot be refunded from the store: ${plan.last_error}. Refund it in that PayLater account's merchant portal, then mark it resolved.`
      } else if (plan?.state === "stopped") {
        kase = "refund_refused"
        description = `PayLater took ${amountText(item)} (payment ${ref(item)}) and no order holds it; PayLater refused its automatic refund ${plan.tries} times. Refund it yourself or mark it resolved.`
      } else {
        kase = "paid_without_order_held"
        description = `PayLater took ${amountText(item)} (payment ${ref(item)}) but no order was placed, and it is held for a person (paidWithoutOrder: "hold"). Place the order by hand, or refund it.`
      }
      break
    case "refund_outcome_unknown":
      description = `A refund of ${amountText(item)} (payment ${ref(item)}) was sent to PayLater without an answer: it may have been paid out. Check the payment in PayLater's merchant portal, then record what you found; nothing is sent again until then.`
      break
    case "mismatch":
      if (typeof item.detail?.medusa_refund_id === "string") {
        kase = "refund_not_sent"
        description = `Medusa records a refund of ${amountText(item)} (payment ${ref(item)}) that PayLater never paid out: the server stopped before Medusa could drop it. Refund the shopper in PayLater's merchant portal, then mark it resolved.`
      } else {
        kase = "order_half_made"
        description = `An order was placed with PayLater payment ${ref(item)} (${amountText(item)}), but the server stopped while Medusa was recording it: its stock may not be reserved and no confirmation may have been sent. Check the order, then mark it resolved.`
      }
      break
    case "settlement_failing":
      description = `Settling PayLater payment ${ref(item)} keeps failing. Check it with PayLater from the order, or look at the server logs, then mark it resolved.`
      break
    default:
      description = `PayLater payment ${ref(item)} needs a person.`
  }
  return {
    key: `attention:${item.id}`,
    title: ATTENTION_KIND_LABEL[item.kind] ?? "PayLater: needs a person",
    description: description + AFTER,
    url: item.order_id ? orderUrl(adminUrl, item.order_id) : settingsUrl(adminUrl),
    case: kase,
    facts: {
      attention_id: item.id,
      kind: item.kind,
      amount: item.amount,
      currency: item.amount ? "QAR" : null,
      payment_ref: item.paylater_order_id ? ref(item) : null,
      order_id: item.order_id,
    },
  }
}

/** The one notice for items over the hour's budget: how many wait, and where. */
export function digestNotice(items: AttentionRecord[], adminUrl: string, now: Date): Notice {
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString()
  return {
    key: `digest:${hour}`,
    title: "PayLater: payments need a person",
    description: `${items.length} more PayLater payment${items.length === 1 ? "" : "s"} need${items.length === 1 ? "s" : ""} a person (${summarize(items)}). Settings → PayLater lists them with their actions.`,
    url: settingsUrl(adminUrl),
    case: "digest",
    facts: { count: items.length, hour },
  }
}

function summarize(items: AttentionRecord[]): string {
  const counts = new Map<string, number>()
  for (const item of items) {
    const label = ATTENTION_KIND_LABEL[item.kind] ?? item.kind
    counts.set(label, (counts.get(label) ?? 0) + 1)
  }
  return [...counts].map(([label, n]) => `${n} ${label}`).join(", ")
}

/**
 * Which notices the items waiting to be told about give, under the hour's budget (`toldLastHour`:
 * items told in the last hour, a digest's items included). Within it, one notice per item, oldest
 * first; over it, the budget's last slot becomes one digest for all the rest. `covered` are the
 * items these notices tell about (to be marked told); the rest wait for the next hour.
 */
export function planItemNotices(
  waiting: AttentionRecord[],
  toldLastHour: number,
  adminUrl: string,
  now: Date,
  perHour = ITEM_NOTICES_PER_HOUR
): Array<{ notice: Notice; covered: AttentionRecord[] }> {
  const due = waiting.filter(needsPerson)
  const budget = perHour - toldLastHour
  if (!due.length || budget <= 0) return []
  if (due.length <= budget) return due.map((item) => ({ notice: itemNotice(item, adminUrl), covered: [item] }))
  const single = due.slice(0, budget - 1)
  const rest = due.slice(budget - 1)
  return [
    ...single.map((item) => ({ notice: itemNotice(item, adminUrl), covered: [item] })),
    { notice: digestNotice(rest, adminUrl, now), covered: rest },
  ]
}

// ---- The store's connection to PayLater -------------------------------------------------------------

/** A minute of webhook answers (paylater_webhook_tally). */
export interface TallyMinute {
  minute: Date
  accepted: number
  refused: number
  last_refusal_reason: string | null
}

/** Refused webhooks with none accepted, at least this many in the last hour: PayLater's are being refused. */
export const REFUSED_WEBHOOKS_THRESHOLD = 3

/**
 * Whether PayLater's notifications are being refused (a wrong `webhookSecret` after a rotation, a
 * wrong `merchantId`): in the last hour at least REFUSED_WEBHOOKS_THRESHOLD refused and none
 * accepted. The episode is named by the last accepted minute before it (null: none in `minutes`),
 * which stays the same however long the storm lasts: one episode, one notice. A new episode needs an
 * accepted webhook and then an hour without one, so two notices are at least an hour apart.
 */
export function webhooksRefused(
  minutes: TallyMinute[],
  now: Date
): { since: Date; after: Date | null; refused: number; reason: string | null } | null {
  const hourAgo = now.getTime() - HOUR_MS
  const lastHour = minutes.filter((m) => m.minute.getTime() >= hourAgo)
  const refused = lastHour.reduce((n, m) => n + m.refused, 0)
  if (refused < REFUSED_WEBHOOKS_THRESHOLD || lastHour.some((m) => m.accepted > 0)) return null
  const sorted = [...minutes].sort((a, b) => a.minute.getTime() - b.minute.getTime())
  const lastAccepted = Math.max(-Infinity, ...sorted.filter((m) => m.accepted > 0).map((m) => m.minute.getTime()))
  const episode = sorted.filter((m) => m.refused > 0 && m.minute.getTime() > lastAccepted)
  const latest = [...episode].reverse().find((m) => m.last_refusal_reason)
  return {
    since: episode[0].minute,
    after: Number.isFinite(lastAccepted) ? new Date(lastAccepted) : null,
    refused,
    reason: latest?.last_refusal_reason ?? null,
  }
}

export type Condition =
  | { kind: "scheduler_stalled"; since: Date }
  | { kind: "webhooks_refused"; since: Date; after: Date | null; refused: number; reason: string | null }
  | { kind: "registration_removed"; registration: string; open: number }

const conditionTitle = (kind: ConditionKind) => CONDITION_LABEL[kind]

/** The words for a condition of the store's connection to PayLater; one key per episode. */
export function conditionNotice(condition: Condition, adminUrl: string): Notice {
  const url = settingsUrl(adminUrl)
  switch (condition.kind) {
    case "scheduler_stalled":
      return {
        key: `scheduler_stalled:${condition.since.toISOString()}`,
        title: conditionTitle("scheduler_stalled"),
        description: schedulerStalledSentence(`${condition.since.toISOString().replace("T", " ").slice(0, 16)} UTC`),
        url,
        case: "scheduler_stalled",
        facts: { since: condition.since.toISOString() },
      }
    case "webhooks_refused":
      return {
        key: `webhooks_refused:after:${condition.after?.toISOString() ?? "none"}`,
        title: conditionTitle("webhooks_refused"),
        description:
          `${condition.refused} notifications from PayLater were refused in the last hour and none accepted` +
          `${condition.reason ? ` (last: ${condition.reason.slice(0, 120)})` : ""}. ` +
          "If PayLater's webhook secret was rotated, set webhookSecret to the new one and restart Medusa; until then payments are found by reconciliation only, minutes later." +
          " Settings → PayLater shows the refusals.",
        url,
        case: "webhooks_refused",
        facts: { since: condition.since.toISOString(), refused: condition.refused },
      }
    case "registration_removed":
      return {
        key: `registration_removed:${condition.registration}`,
        title: conditionTitle("registration_removed"),
        description:
          `PayLater registration "${condition.registration}" is no longer configured in medusa-config, and ${condition.open} of its payments are still open: ` +
          "they are asked about and refunded at no PayLater account. Configure it again; a paid one is listed on Settings → PayLater.",
        url,
        case: "registration_removed",
        facts: { registration: condition.registration, open: condition.open },
      }
  }
}

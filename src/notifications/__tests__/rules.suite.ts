import type { AttentionRecord, AutoRefundState } from "../../modules/paylater-ledger/types"
import { ATTENTION_KIND_LABEL, CONDITION_LABEL } from "../words"
import {
  conditionNotice,
  ITEM_NOTICES_PER_HOUR,
  itemNotice,
  needsPerson,
  planItemNotices,
  REFUSED_WEBHOOKS_THRESHOLD,
  webhooksRefused,
  type TallyMinute,
} from "../rules"
import { notificationsOf } from "../send"

const ADMIN = "https://api.store.qa/app"
const SESSION = "payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5"
const CART = "cart_01JD3M6ZQ8W4Y2K7N5R9T1AAAA"

function item(over: Partial<AttentionRecord> = {}): AttentionRecord {
  return {
    id: "platt_1",
    kind: "paid_without_order",
    status: "open",
    dedupe_key: null,
    summary: `Paid 120.00 QAR at PayLater (${SESSION}-1) for cart ${CART}, mobile 97455512345, token abc`,
    amount: "120.00",
    paylater_order_id: `${SESSION}-1`,
    session_id: SESSION,
    payment_id: null,
    payment_collection_id: null,
    order_id: null,
    cart_id: CART,
    detail: {},
    refund_state: "held",
    refund_tries: 0,
    refund_next_at: null,
    refund_error: null,
    resolution: null,
    resolution_note: null,
    resolved_by: null,
    resolved_at: null,
    notified_at: null,
    created_at: new Date("2026-11-28T10:00:00Z"),
    ...over,
  }
}

const plan = (state: AutoRefundState, extra: { tries?: number; next_attempt_at?: string; last_error?: string } = {}) => ({
  refund_state: state,
  refund_tries: extra.tries ?? 0,
  refund_next_at: extra.next_attempt_at ? new Date(extra.next_attempt_at) : null,
  refund_error: extra.last_error ?? null,
})

describe("which items need a person", () => {
  it("a payment held without an order does; one the plugin will refund by itself does not yet", () => {
    expect(needsPerson(item())).toBe(true)
    expect(needsPerson(item({ ...plan("scheduled", { next_attempt_at: "2026-11-28T10:11:00Z" }) }))).toBe(false)
    expect(needsPerson(item({ ...plan("refunding") }))).toBe(false)
    expect(needsPerson(item({ ...plan("refunded") }))).toBe(false)
  })

  it("a refund PayLater kept refusing, or that no registration may send, does", () => {
    expect(needsPerson(item({ ...plan("stopped", { tries: 6, last_error: "too early" }) }))).toBe(true)
    expect(needsPerson(item({ ...plan("held", { last_error: 'its PayLater registration "b" is no longer configured' }) }))).toBe(true)
  })

  it("an automatic refund without an answer is told by its own refund item, not twice", () => {
    expect(needsPerson(item({ ...plan("outcome_unknown") }))).toBe(false)
    expect(needsPerson(item({ kind: "refund_outcome_unknown", detail: { refund_attempt_id: "r1" } }))).toBe(true)
  })

  it("every other kind does while open; no resolved item ever does", () => {
    for (const kind of ["mismatch", "settlement_failing", "refund_outcome_unknown"] as const) {
      expect(needsPerson(item({ kind, detail: null }))).toBe(true)
      expect(needsPerson(item({ kind, detail: null, status: "resolved" }))).toBe(false)
    }
    expect(needsPerson(item({ status: "resolved" }))).toBe(false)
  })
})

describe("the words", () => {
  it("are Settings → PayLater's: the item's label is the title", () => {
    for (const kind of ["paid_without_order", "refund_outcome_unknown", "mismatch", "settlement_failing"] as const) {
      expect(itemNotice(item({ kind }), ADMIN).title).toBe(ATTENTION_KIND_LABEL[kind])
    }
    expect(conditionNotice({ kind: "scheduler_stalled", since: new Date("2026-11-28T10:00:00Z") }, ADMIN).title).toBe(CONDITION_LABEL.scheduler_stalled)
  })

  it("say what happened and what to do, per case, and link to the order or Settings → PayLater", () => {
    const held = itemNotice(item(), ADMIN)
    expect(held.case).toBe("paid_without_order_held")
    expect(held.description).toMatch(/120\.00 QAR.*held for a person.*Place the order by hand, or refund it/)
    expect(held.url).toBe(`${ADMIN}/settings/paylater`)
    const refused = itemNotice(item({ ...plan("stopped", { tries: 6, last_error: "x" }) }), ADMIN)
    expect(refused.case).toBe("refund_refused")
    expect(refused.description).toMatch(/refused its automatic refund 6 times/)
    const unrouted = itemNotice(item({ ...plan("held", { last_error: 'its PayLater registration "b" is no longer configured in medusa-config' }) }), ADMIN)
    expect(unrouted.case).toBe("refund_not_routable")
    expect(unrouted.description).toMatch(/registration "b" is no longer configured/)
    const halfMade = itemNotice(item({ kind: "mismatch", order_id: "order_1", detail: null }), ADMIN)
    expect(halfMade.case).toBe("order_half_made")
    expect(halfMade.url).toBe(`${ADMIN}/orders/order_1`)
    expect(itemNotice(item({ kind: "mismatch", detail: { medusa_refund_id: "ref_1" } }), ADMIN).case).toBe("refund_not_sent")
  })

  it("never carry a full session, PayLater order or cart id, a mobile number, a token or the summary", () => {
    const notices = [
      itemNotice(item(), ADMIN),
      itemNotice(item({ kind: "refund_outcome_unknown" }), ADMIN),
      itemNotice(item({ kind: "mismatch", detail: null }), ADMIN),
      itemNotice(item({ kind: "settlement_failing", detail: null }), ADMIN),
    ]
    for (const notice of notices) {
      const text = JSON.stringify(notificationsOf(notice, { feed: true, emails: ["ops@store.qa"] }))
      expect(text).not.toContain(SESSION)
      expect(text).not.toContain(CART)
      expect(text).not.toContain("97455512345")
      expect(text).not.toContain("token")
      expect(text).toContain("payses_…T1V3X5-1")
    }
  })

  it("the feed notification is for every admin, with the title and description the panel shows", () => {
    const [feed, email] = notificationsOf(itemNotice(item(), ADMIN), { feed: true, emails: ["ops@store.qa"] })
    expect(feed).toMatchObject({ to: "", channel: "feed", template: "paylater-attention", idempotency_key: "paylater:attention:platt_1:feed" })
    expect(feed.data.title).toBe("Paid, no order")
    expect(feed.data.description).toContain(`${ADMIN}/settings/paylater`)
    expect(email).toMatchObject({ to: "ops@store.qa", channel: "email", idempotency_key: "paylater:attention:platt_1:email:ops@store.qa" })
    expect(notificationsOf(itemNotice(item(), ADMIN), { feed: false, emails: [] })).toEqual([])
  })
})

describe("the hourly bound", () => {
  const now = new Date("2026-11-28T10:30:00Z")
  const many = (n: number) => Array.from({ length: n }, (_, i) => item({ id: `platt_${i}` }))

  it("one notice per item within the budget", () => {
    const plans = planItemNotices(many(3), 0, ADMIN, now)
    expect(plans.map((p) => p.notice.key)).toEqual(["attention:platt_0", "attention:platt_1", "attention:platt_2"])
  })

  it("a storm gives the budget, its last slot one digest covering all the rest", () => {
    const plans = planItemNotices(many(1000), 0, ADMIN, now)
    expect(plans).toHaveLength(ITEM_NOTICES_PER_HOUR)
    const digest = plans[plans.length - 1]
    expect(digest.notice.case).toBe("digest")
    expect(digest.covered).toHaveLength(1000 - (ITEM_NOTICES_PER_HOUR - 1))
    expect(digest.notice.description).toMatch(/^996 more PayLater payments need a person \(996 Paid, no order\)/)
  })

  it("nothing once the hour's budget is spent; what waits is told the next hour", () => {
    expect(planItemNotices(many(3), ITEM_NOTICES_PER_HOUR, ADMIN, now)).toEqual([])
    expect(planItemNotices(many(3), ITEM_NOTICES_PER_HOUR - 1, ADMIN, now).map((p) => p.notice.case)).toEqual(["digest"])
  })

  it("items that do not need a person are left out and take no budget", () => {
    const plans = planItemNotices([item({ id: "a", ...plan("scheduled") }), item({ id: "b", status: "resolved" }), item({ id: "c" })], 0, ADMIN, now)
    expect(plans.map((p) => p.notice.key)).toEqual(["attention:c"])
  })

  it("the same item always gives the same key (a repeat after a crash is not sent twice)", () => {
    expect(itemNotice(item(), ADMIN).key).toBe(itemNotice(item({ summary: "changed" }), ADMIN).key)
  })
})

describe("PayLater's notifications refused", () => {
  const now = new Date("2026-11-28T12:00:00Z")
  const at = (min: number, accepted: number, refused: number, reason: string | null = "Invalid signature"): TallyMinute => ({
    minute: new Date(now.getTime() - min * 60_000),
    accepted,
    refused,
    last_refusal_reason: refused ? reason : null,
  })

  it("a storm of refusals with none accepted is one episode, named by the last accepted minute", () => {
    const before = [at(300, 4, 0), at(200, 0, 50)]
    const first = webhooksRefused([...before, at(30, 0, 400)], now)!
    expect(first).toMatchObject({ refused: 400, reason: "Invalid signature" })
    expect(first.since).toEqual(at(200, 0, 1).minute)
    const later = webhooksRefused([...before, at(30, 0, 400), at(1, 0, 600)], new Date(now.getTime()))!
    const a = conditionNotice({ kind: "webhooks_refused", ...first }, ADMIN)
    const b = conditionNotice({ kind: "webhooks_refused", ...later }, ADMIN)
    expect(a.key).toBe(b.key)
    expect(a.key).toBe(`webhooks_refused:after:${at(300, 1, 0).minute.toISOString()}`)
    expect(a.description).toMatch(/set webhookSecret to the new one/)
  })

  it("is not a condition with an accepted webhook in the last hour, or fewer refusals than the threshold", () => {
    expect(webhooksRefused([at(30, 0, 100), at(10, 1, 0)], now)).toBeNull()
    expect(webhooksRefused([at(30, 0, REFUSED_WEBHOOKS_THRESHOLD - 1)], now)).toBeNull()
    expect(webhooksRefused([at(90, 0, 100)], now)).toBeNull()
  })
})

describe("conditions", () => {
  it("the scheduler's stall says Settings → PayLater's sentence, once per stall", () => {
    const since = new Date("2026-11-28T10:00:00Z")
    const notice = conditionNotice({ kind: "scheduler_stalled", since }, ADMIN)
    expect(notice.description).toMatch(/^Medusa's scheduler has not run the PayLater jobs since 2026-11-28 10:00 UTC\. A watchdog/)
    expect(notice.key).toBe(`scheduler_stalled:${since.toISOString()}`)
  })

  it("a removed registration is told once, with how many of its payments are open", () => {
    const notice = conditionNotice({ kind: "registration_removed", registration: "paylater-b", open: 3 }, ADMIN)
    expect(notice.key).toBe("registration_removed:paylater-b")
    expect(notice.description).toMatch(/"paylater-b" is no longer configured in medusa-config, and 3 of its payments are still open/)
  })
})

/**
 * Issue 44: what needs a person reaches the merchant through Medusa's Notification Module. The app
 * runs Medusa's own module with its local provider on "feed" (the admin's notification panel) and
 * on "email" (PAYLATER_TEST_NOTIFICATIONS), and the PayLater options name one address
 * (PAYLATER_NOTIFY_EMAILS): both set at boot by default-app.spec.ts. What the admin sees is read where the dashboard reads it:
 * GET /admin/notifications?channel=feed.
 *
 * The items are put on Settings → PayLater's list the way the plugin's own paths put them
 * (flagForAttention with each path's plan), so every case is here without staging each failure; the
 * storm of refused webhooks is real HTTP to the webhook route.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { createAdminUser, type AdminAuth } from "../../helpers/store-client"
import { signWebhook } from "../../../src/lib/paylater"
import { PAYLATER_LEDGER_MODULE } from "../../../src/modules/paylater-ledger"
import type { PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger/service"
import type { AttentionKind, AutoRefundState, FlagForAttentionInput } from "../../../src/modules/paylater-ledger/types"
import { planColumns, type AutoRefund } from "../../../src/money-plan/refund-plan"
import { notifyMerchant } from "../../../src/notifications/sweep"
import { ITEM_NOTICES_PER_HOUR } from "../../../src/notifications/rules"


const HOUR = 60 * 60_000
const plan = (state: AutoRefundState, extra: Partial<AutoRefund> = {}) =>
  planColumns({ state, tries: 0, next_attempt_at: null, last_error: null, ...extra })

interface FeedNotification {
  id: string
  to: string
  channel: string
  template: string
  data: { title: string; description: string; case: string; url: string; attention_id?: string }
}

export function notifications({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  useSeededStore({ api, getContainer })
  let admin: AdminAuth
  const ledger = () => getContainer().resolve<PayLaterLedgerModuleService>(PAYLATER_LEDGER_MODULE)
  let n = 0

  beforeAll(async () => {
    admin = await createAdminUser(api, getContainer())
  })

  /** What the admin's notification panel lists (the dashboard's own query). */
  async function panel(): Promise<FeedNotification[]> {
    const res = await api.get("/admin/notifications?channel=feed&limit=200&fields=id,to,channel,template,data", admin)
    return res.data.notifications
  }
  async function emails(): Promise<FeedNotification[]> {
    const res = await api.get("/admin/notifications?channel=email&limit=200&fields=id,to,channel,template,data", admin)
    return res.data.notifications
  }

  function flag(kind: AttentionKind, over: Partial<FlagForAttentionInput> = {}) {
    n++
    return ledger().flagForAttention(kind, {
      dedupe_key: `${kind}:test-${n}-${Date.now()}`,
      summary: `test item ${n}`,
      amount: "360.00",
      paylater_order_id: `payses_01JTESTNOTIFY${String(n).padStart(8, "0")}-1`,
      session_id: `payses_01JTESTNOTIFY${String(n).padStart(8, "0")}`,
      cart_id: "cart_01JTESTNOTIFYCART0000000000",
      ...over,
    })
  }

  /**
   * Every case the issue names, as the plugin's own paths list it, each followed by a sweep an
   * hour after the last (`then`): each is told when it first needs a person, within the hour's budget.
   */
  async function everyCase(then: (hour: number) => Promise<unknown>) {
    const cases: Array<[string, () => ReturnType<typeof flag>]> = [
      ["paid_without_order_held", () => flag("paid_without_order", { detail: { provider_id: "pp_paylater_paylater" }, ...plan("held") })],
      ["refund_refused", () => flag("paid_without_order", { ...plan("stopped", { tries: 6, last_error: "PayLater refused the refund" }) })],
      [
        "refund_not_routable",
        () =>
          flag("paid_without_order", {
            ...plan("held", { last_error: 'its PayLater registration "paylater-b" (pp_paylater_paylater-b) is no longer configured in medusa-config' }),
          }),
      ],
      ["refund_outcome_unknown", () => flag("refund_outcome_unknown", { detail: { refund_attempt_id: "plrfa_test" } })],
      ["order_half_made", () => flag("mismatch", { order_id: "order_01JTESTHALFMADE" })],
      ["settlement_failing", () => flag("settlement_failing", { amount: null })],
    ]
    const items: Record<string, Awaited<ReturnType<typeof flag>>> = {}
    for (const [i, [kase, make]] of cases.entries()) {
      items[kase] = await make()
      await then(i * 2)
    }
    return items
  }

  /** The sweep, as the recovery job runs it, `hours` hours from now (each hour has its own budget). */
  const sweep = (hours = 0, container: MedusaContainer = getContainer()) => notifyMerchant(container, new Date(Date.now() + hours * HOUR))

  it("one notification per case in the admin's panel and by e-mail, none twice, none for what is not a person's yet", async () => {
    // Refunded by the plugin by itself at 10 minutes: nothing for a person (yet).
    await flag("paid_without_order", { ...plan("scheduled", { next_attempt_at: new Date(Date.now() + 600_000).toISOString() }) })
    // Each sweep twice, as two servers would.
    const items = await everyCase((hour) => Promise.all([sweep(hour), sweep(hour)]))

    const feed = await panel()
    expect(feed.map((f) => f.data.case).sort()).toEqual(Object.keys(items).sort())
    for (const [kase, item] of Object.entries(items)) {
      const [one] = feed.filter((f) => f.data.case === kase)
      expect(one).toMatchObject({ to: "", channel: "feed", template: "paylater-attention", data: { attention_id: item.id } })
      expect(one.data.title.length).toBeGreaterThan(3)
      expect(one.data.description).toMatch(/Settings → PayLater/)
      // No key to the shopper's cart or payment in it.
      expect(JSON.stringify(one)).not.toMatch(/payses_01JTESTNOTIFY\d{8}|cart_01JTESTNOTIFYCART/)
    }
    expect(feed.find((f) => f.data.case === "order_half_made")!.data.url).toMatch(/\/app\/orders\/order_01JTESTHALFMADE$/)
    const mail = await emails()
    expect(mail).toHaveLength(feed.length)
    expect(new Set(mail.map((m) => m.to))).toEqual(new Set(["ops@store.qa"]))

    // Marked in the ledger: told once, whatever runs after.
    const told = await ledger().listPayLaterAttentions({ id: Object.values(items).map((i) => i.id) })
    expect(told.every((i) => i.notified_at)).toBe(true)
    await sweep(12)
    expect(await panel()).toHaveLength(feed.length)
  })

  it("nothing for an item resolved before it was told about", async () => {
    const item = await flag("mismatch", { order_id: "order_01JTESTRESOLVED" })
    const resolved = await api.post(`/admin/paylater/attention/${item.id}/resolve`, { resolution: "resolved" }, admin)
    expect(resolved.status).toBe(200)
    await sweep(0)
    expect(await panel()).toEqual([])
  })

  it("a storm of items gives the hour's budget, its last one a digest of the rest; the rest are told once", async () => {
    for (let i = 0; i < 30; i++) await flag("paid_without_order", { ...plan("held") })
    await sweep(0)
    await sweep(0)
    const feed = await panel()
    expect(feed).toHaveLength(ITEM_NOTICES_PER_HOUR)
    expect(feed.filter((f) => f.data.case === "digest")).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ description: expect.stringMatching(/^26 more PayLater payments need a person/) }) }),
    ])
    await sweep(3)
    expect(await panel()).toHaveLength(ITEM_NOTICES_PER_HOUR)
  })

  it("a storm of webhooks PayLater signs with another secret gives one notification", async () => {
    const { merchantId } = paylater().options
    const wrong = () => signWebhook({ merchantId, orderId: "payses_01JTESTSTORM-1", status: "success", timestamp: Date.now() }, "rotated-secret")
    for (let i = 0; i < 3; i++) {
      const answers = await Promise.all(Array.from({ length: 40 }, () => api.post("/paylater/webhooks", wrong(), { validateStatus: () => true })))
      expect(new Set(answers.map((a) => a.status))).toEqual(new Set([403]))
      // The route counts its answers off the request path, once a second.
      await new Promise((r) => setTimeout(r, 1500))
      await sweep(0)
    }
    const feed = await panel()
    expect(feed).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ case: "webhooks_refused", title: "PayLater notifications refused", description: expect.stringMatching(/^40 notifications from PayLater were refused in the last hour and none accepted \(last: [^)]*Invalid signature\)/) }),
      }),
    ])
    // Told when the first 40 were refused; the next 80 are the same storm.
    expect(feed[0].data.description).not.toContain("rotated-secret")
  })

  it("a registration removed while its payments are open, and a stopped scheduler: one each", async () => {
    await ledger().createPayLaterAttempts(
      Array.from({ length: 2 }, (_, i) => ({
        paylater_order_id: `payses_01JTESTGONE${i}-1`,
        kind: "link",
        session_id: `payses_01JTESTGONE${i}`,
        provider_id: "pp_paylater_paylater-gone",
        amount: 360,
        currency_code: "qar",
        state: "open",
      }))
    )
    const schedule = process.env.PAYLATER_RECONCILE_SCHEDULE
    process.env.PAYLATER_RECONCILE_SCHEDULE = "*/2 * * * *"
    try {
      const lastRun = new Date(Date.now() - 30 * 60_000)
      await ledger().createPayLaterReconcileRuns({ started_at: lastRun, finished_at: lastRun, ran: true, checked: 0, eligible: 0, outcomes: {}, trigger: "schedule" })
      await sweep(0)
      await sweep(0)
    } finally {
      process.env.PAYLATER_RECONCILE_SCHEDULE = schedule
    }
    const feed = await panel()
    expect(feed.map((f) => f.data.case).sort()).toEqual(["registration_removed", "scheduler_stalled"])
    expect(feed.find((f) => f.data.case === "registration_removed")!.data.description).toMatch(/"paylater-gone" is no longer configured in medusa-config, and 2 of its payments are still open/)
    expect(feed.find((f) => f.data.case === "scheduler_stalled")!.data.description).toMatch(/^Medusa's scheduler has not run the PayLater jobs since/)
  })
}

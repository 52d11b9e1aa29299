/**
 * The funnel and the finance report over Medusa's real admin API and PostgreSQL: a seeded ledger
 * history (integration-tests/helpers/funnel-history.ts) answered by the SQL routes, held equal to
 * the pure definitions (src/funnel/definitions.ts) computed over the same rows; the CSV's rows and
 * quoting; paging; the drill-down; what a bad query and a stranger get.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { computeFunnel, type FunnelReport } from "../../../src/funnel/definitions"
import { periodOf, presetPeriod, previousPeriod, type Period } from "../../../src/funnel/period"
import { ledgerModuleOf } from "../../../src/modules/paylater-ledger/resolve"
import { insertRows, readFunnelRows, seedHistory } from "../../helpers/funnel-history"
import { createAdminUser, type AdminAuth } from "../../helpers/store-client"
import type { SuiteOptions } from "../../helpers/shared-app"

const ZONE = "Asia/Qatar"
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)

/** RFC 4180 parser for the test's reading of the CSV (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ",") row.push(field), (field = "")
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++
    else field += c
  }
  if (field || row.length) row.push(field), rows.push(row)
  return rows
}

const cents = (t: string) => BigInt(t.replace(".", ""))
const sumText = (xs: string[]) => {
  const c = xs.reduce((s, x) => s + cents(x), 0n)
  return `${c / 100n}.${String(c % 100n).padStart(2, "0")}`
}

export function reports({ api, getContainer }: SuiteOptions): void {
  let admin: AdminAuth
  const keep = { validateStatus: () => true }
  const knex = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const end = new Date()

  beforeAll(async () => {
    admin = await createAdminUser(api, getContainer())
    // 120 days: the 90-day funnel has a previous period with rows in it too.
    await seedHistory(knex(), { checkouts: 900, days: 120, end, seed: 7, prefix: "it", awkwardRefs: true })
  })

  const get = (path: string) => api.get(path, { ...admin, ...keep })
  const truth = async (period: Period): Promise<FunnelReport> => {
    const rows = await readFunnelRows(knex())
    return computeFunnel({ ...rows, period, previous: previousPeriod(period), now: new Date() })
  }

  it.each(["today", "7d", "30d", "90d"] as const)("the %s funnel from SQL is the definitions' answer over the same rows", async (preset) => {
    const res = await get(`/admin/paylater/reports/funnel?period=${preset}`)
    expect(res.status).toBe(200)
    const expected = await truth(presetPeriod(preset, new Date(), ZONE))
    const { period, previous, generated_at, ...report } = res.data
    expect(period).toMatchObject({ time_zone: ZONE, days: preset === "today" ? 1 : Number(preset.slice(0, -1)) })
    expect(report).toEqual(expected)
    if (preset === "90d") {
      // Not a vacuous equality: the history shows in every part of the report.
      expect(report.methods.total.checkouts.started).toBeGreaterThan(500)
      for (const k of ["placed", "paid_without_order", "declined", "expired", "abandoned"] as const) expect(report.methods.total.attempts[k]).toBeGreaterThan(0)
      for (const m of ["link", "request_to_pay", "point_of_sale"] as const) expect(report.methods[m].checkouts.paid).toBeGreaterThan(0)
      expect(report.methods.total.attempts.started).toBeGreaterThan(report.methods.total.checkouts.started)
      expect(report.methods.total.refunds.count).toBeGreaterThan(0)
      expect(report.methods.total.previous_conversion.checkouts).not.toBeNull()
      expect(report.errors.length).toBeGreaterThan(0)
      expect(report.daily).toHaveLength(90)
      // Requests to Pay refused before a push (the shopper look-up, or a number PayLater does not
      // know): counted apart from the pushes, from the attempts' start errors.
      expect(report.request_to_pay.lookup_refusals).toBeGreaterThan(0)
      const rows = await readFunnelRows(knex())
      const since = presetPeriod("90d", new Date(), ZONE).from
      expect(report.request_to_pay.lookup_refusals).toBe(
        rows.attempts.filter((a) => a.kind === "request_to_pay" && a.created_at >= since && ["paylater_not_eligible", "paylater_rtp_try_later"].includes(a.start_error ?? "")).length
      )
      // Some payments were asked about again after they were paid: the history tests paid_at, not the last word.
      expect(rows.attempts.some((a) => a.state === "paid" && a.paid_at!.getTime() !== a.last_status_at!.getTime())).toBe(true)
    }
  })

  it("a custom range in another time zone is the definitions' answer too", async () => {
    const res = await get(`/admin/paylater/reports/funnel?period=custom&from=2000-01-01&to=2000-12-31&tz=UTC`)
    expect(res.status).toBe(200)
    expect(res.data.methods.total.checkouts.started).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10)
    const res2 = await get(`/admin/paylater/reports/funnel?period=custom&from=${from}&to=${today}&tz=Europe/London`)
    const { period, previous, generated_at, ...report } = res2.data
    expect(report).toEqual(await truth(periodOf(from, today, "Europe/London")))
  })

  it("the CSV lists every payment of the period, quoted, with a BOM, adding up to the funnel's money", async () => {
    const funnel = (await get(`/admin/paylater/reports/funnel?period=90d`)).data
    const res = await api.get(`/admin/paylater/reports/payments/csv?period=90d`, { ...admin, ...keep, responseType: "arraybuffer" })
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toMatch(/^text\/csv; charset=utf-8/)
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="paylater-payments-.*\.csv"/)
    const bytes = Buffer.from(res.data)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = bytes.toString("utf8").slice(1)
    const [header, ...rows] = parseCsv(text)
    expect(header).toEqual(["paylater_order_id", "paylater_reference", "medusa_order", "method", "paid_at", "amount", "refunded", "net", "status", "currency", "mobile"])
    expect(rows.every((r) => r.length === header.length)).toBe(true)
    const col = (name: string) => rows.map((r) => r[header.indexOf(name)])
    const money = funnel.methods.total.money
    expect(rows).toHaveLength(money.payments)
    expect(sumText(col("amount"))).toBe(money.paid)
    expect(sumText(col("refunded"))).toBe(money.refunded)
    expect(sumText(col("net"))).toBe(money.net)
    for (const m of ["link", "request_to_pay", "point_of_sale"]) {
      expect(rows.filter((r) => r[3] === m)).toHaveLength(funnel.methods[m].money.payments)
    }
    // The awkward references survive quoting, Arabic included.
    expect(col("paylater_reference")).toEqual(expect.arrayContaining(['PL-1001, "gift"', "مرجع-٢٠٢٦", 'line\nbreak "quoted"']))
    expect(text).toContain('"PL-1001, ""gift"""')
    // Paid times in the store's zone, amounts two-decimal, masked numbers only.
    expect(col("paid_at").every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/.test(t))).toBe(true)
    expect(col("amount").every((t) => /^\d+\.\d\d$/.test(t))).toBe(true)
    expect(new Set(col("currency"))).toEqual(new Set(["QAR"]))
    expect(col("mobile").filter(Boolean).every((m) => /^974\*{5}\d{3}$/.test(m))).toBe(true)
    expect([...new Set(col("status"))]).toEqual(expect.arrayContaining(["placed", "paid_without_order", "refunded", "partially_refunded"]))
    expect(text).not.toMatch(/secret|token/i)
  })

  it("a second tab's extra payment is paid without an order at once, in SQL as in the definitions, in the funnel and the CSV (issue 45)", async () => {
    // A paid and placed checkout of the history, and a second attempt on its cart paid a minute ago
    // whose session Medusa deleted (the first tab's payment placed the order): an extra payment.
    const {
      rows: [placed],
    } = await knex().raw(`select * from paylater_attempt where state = 'paid' and order_id is not null and cart_id is not null and deleted_at is null limit 1`)
    const now = Date.now()
    const extra = {
      ...placed,
      id: `${placed.id}_2tab`,
      paylater_order_id: `${placed.paylater_order_id}_2tab`,
      session_id: `${placed.session_id}_2tab`,
      order_id: null,
      payment_id: null,
      created_at: new Date(now - 3 * 60_000).toISOString(),
      updated_at: new Date(now - 60_000).toISOString(),
      paid_at: new Date(now - 60_000).toISOString(),
      last_status_at: new Date(now - 60_000).toISOString(),
      session_gone_at: new Date(now - 2 * 60_000).toISOString(),
      paylater_ref: "PL-2TAB",
    }
    await insertRows(knex(), "paylater_attempt", [extra])
    const res = await get(`/admin/paylater/reports/funnel?period=today`)
    const { period, previous, generated_at, ...report } = res.data
    expect(report).toEqual(await truth(presetPeriod("today", new Date(), ZONE)))
    expect(report.methods.total.attempts.paid_without_order).toBeGreaterThanOrEqual(1)
    expect(report.methods.total.attempts.placing).toBe(0)
    const csv = await api.get(`/admin/paylater/reports/payments/csv?period=today`, { ...admin, ...keep, responseType: "text" })
    const [header, ...rows] = parseCsv(String(csv.data).replace(/^\uFEFF/, ""))
    const row = rows.find((r) => r[header.indexOf("paylater_order_id")] === extra.paylater_order_id)
    expect(row?.[header.indexOf("status")]).toBe("paid_without_order")
  })

  it("the page's rows are the CSV's, page after page", async () => {
    const csv = await api.get(`/admin/paylater/reports/payments/csv?period=30d&method=link`, { ...admin, ...keep, responseType: "text" })
    const ids = parseCsv(String(csv.data).replace(/^\uFEFF/, "")).slice(1).map((r) => r[0])
    const paged: string[] = []
    let after: string | null = null
    do {
      const res = await get(`/admin/paylater/reports/payments?period=30d&method=link&limit=37${after ? `&after=${after}` : ""}`)
      expect(res.status).toBe(200)
      paged.push(...res.data.payments.map((p: { paylater_order_id: string }) => p.paylater_order_id))
      after = res.data.next
    } while (after)
    expect(ids.length).toBeGreaterThan(37)
    expect(paged).toEqual(ids)
  })

  it("each funnel number opens the attempts behind it", async () => {
    const funnel = (await get(`/admin/paylater/reports/funnel?period=90d`)).data
    for (const [outcome, method] of [["declined", "request_to_pay"], ["abandoned", null], ["paid", "link"]] as const) {
      const res = await get(`/admin/paylater/reports/attempts?period=90d&outcome=${outcome}${method ? `&method=${method}` : ""}&limit=200`)
      expect(res.status).toBe(200)
      const counts = funnel.methods[method ?? "total"].attempts
      const expected = counts[outcome]
      if (expected <= 200) {
        expect(res.data.attempts).toHaveLength(expected)
        expect(res.data.has_more).toBe(false)
      } else {
        expect(res.data.has_more).toBe(true)
      }
      expect(res.data.attempts.every((a: { method: string }) => !method || a.method === method)).toBe(true)
    }
  })

  it.each([
    ["period=yesterday", /period/],
    ["period=custom&from=2026-01-01", /custom period needs from and to/],
    ["period=custom&from=2026-02-30&to=2026-03-01", /dates/],
    ["period=custom&from=2026-03-01&to=2026-02-01", /is after/],
    ["period=custom&from=2024-01-01&to=2026-01-01", /at most 366/],
    [`period=custom&from=${inDays(0)}&to=${inDays(10)}`, /future/],
    ["period=7d&tz=Mars/Olympus", /not a time zone/],
    ["period=7d&from=2026-01-01", /period=custom/],
    ["period=7d&limit=100000", /limit/],
    ["period=7d&after=bm9wZQ", /cursor/],
    ["period=7d&method=cash", /method/],
  ])("a bad query (%s) is a 400 with a message", async (query, message) => {
    for (const path of ["funnel", "payments", "payments/csv", "attempts"]) {
      const res = await get(`/admin/paylater/reports/${path}?${query}`)
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(message)
    }
  })

  it("paid at is when PayLater first said paid: asking it again later moves the last word, not the payment", async () => {
    const ledger = ledgerModuleOf(getContainer())!
    const id = "payses_it_paid_at"
    const created = new Date()
    const paidAt = new Date(created.getTime() + 60_000)
    const askedAgain = new Date(created.getTime() + 86_400_000)
    await ledger.writeAhead({ paylater_order_id: id, kind: "link", session_id: id, amount: "333.00", currency_code: "QAR", expires_at: new Date(created.getTime() + 3600_000) })
    await ledger.recordStatus(id, { code: 2, signal: "webhook", paylater_ref: "PL-PAID-AT", at: paidAt })
    await ledger.recordStatus(id, { code: 2, signal: "admin", at: askedAgain })
    const row = await ledger.findAttempt(id)
    expect(new Date(row!.paid_at!).toISOString()).toBe(paidAt.toISOString())
    expect(new Date(row!.last_status_at!).toISOString()).toBe(askedAgain.toISOString())

    // The finance report lists it on the day it was paid, at that time; the day PayLater was asked again has no payment of it.
    const today = (await get(`/admin/paylater/reports/payments?period=today&method=link&limit=200`)).data.payments
    expect(today.find((p: { paylater_order_id: string }) => p.paylater_order_id === id)).toMatchObject({ paid_at: paidAt.toISOString(), amount: "333.00" })
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(d)
    if (day(askedAgain) !== day(paidAt)) {
      const later = (await get(`/admin/paylater/reports/payments?period=custom&from=${day(askedAgain)}&to=${day(askedAgain)}&limit=200`)).data.payments
      expect(later.map((p: { paylater_order_id: string }) => p.paylater_order_id)).not.toContain(id)
    }
    // The funnel (money, time to pay) is still the definitions' answer, which reads paid_at.
    const { period, previous, generated_at, ...report } = (await get(`/admin/paylater/reports/funnel?period=today`)).data
    expect(report).toEqual(await truth(presetPeriod("today", new Date(), ZONE)))
    expect(report.methods.link.money.payments).toBeGreaterThan(0)
  })

  it("is for signed-in staff only", async () => {
    for (const path of ["funnel", "payments", "payments/csv", "attempts"]) {
      const res = await api.get(`/admin/paylater/reports/${path}?period=7d`, keep)
      expect(res.status).toBe(401)
    }
  })
}

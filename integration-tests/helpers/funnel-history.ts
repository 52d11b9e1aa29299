/**
 * A store's PayLater history written straight into the ledger (paylater_attempt and
 * paylater_refund_attempt), for the funnel's integration test, its benchmark (bench/funnel.js) and
 * the demo (demo/seed.ts). Deterministic for a seed. Varied as a real store is: links, Requests to
 * Pay and point-of-sale requests; paid (most placed, a few paid without an order, a few paid twice),
 * declined, expired, abandoned, still open, refused at creation; a declined Request to Pay followed by
 * a paid link; refunds (partial and full, some days later, some failed).
 *
 * Rows carry no Medusa session, cart or order that exists (except `orderIds` handed in): the
 * reports read the ledger only, and the rows are not open to reconciliation (ended, or expired long
 * ago... the few open ones expire within the hour and are asked about like any).
 */
import type { Knex } from "knex"
import type { FunnelAttempt, FunnelRefund } from "../../src/funnel/definitions"
import { prng } from "./prng"

export interface HistoryOptions {
  /** Checkouts to generate (each has one attempt, sometimes two). */
  checkouts: number
  /** Spread over this many days before `end`. */
  days: number
  end: Date
  seed?: number
  /** Id prefix, so a history can be told apart (and deleted). */
  prefix?: string
  /** Paylater references with a comma, a quote and Arabic text, for the CSV's quoting. */
  awkwardRefs?: boolean
  /** Real Medusa orders to hang the first placed payments on (display ids in the report). */
  orderIds?: string[]
}

export interface AttemptInsert {
  id: string
  paylater_order_id: string
  kind: string
  session_id: string
  provider_id: string
  payment_collection_id: string | null
  cart_id: string | null
  order_id: string | null
  payment_id: string | null
  amount: string
  raw_amount: { value: string; precision: number }
  currency_code: string
  expires_at: string | null
  state: string
  last_status_code: number | null
  last_status_at: string | null
  last_status_signal: string | null
  paid_at: string | null
  paylater_ref: string | null
  superseded_by: string | null
  session_gone_at: string | null
  start_error: string | null
  /** Open rows: not due for reconciliation's questions (the history stays as written). */
  next_ask_at: string | null
  detail: Record<string, unknown> | null
  created_at: string
  updated_at: string
}

export interface RefundInsert {
  id: string
  paylater_order_id: string
  amount: string
  raw_amount: { value: string; precision: number }
  full: boolean
  status: string
  sent_at: string
  settled_at: string | null
  created_at: string
  updated_at: string
}

const MINUTE = 60_000
const AWKWARD_REFS = ['PL-1001, "gift"', "مرجع-٢٠٢٦", 'line\nbreak "quoted"']
// What the ledger's start_error holds for a create PayLater (or the plugin) refused: PayLater's error
// codes, and the plugin's own for a Request to Pay refused before the push (the shopper look-up found
// no account, or PayLater does not know the number).
const START_ERRORS = ["AMOUNT_OUT_OF_RANGE", "VALIDATION", "INVALID_API_KEY", "MERCHANT_MISSING"]
const RTP_START_ERRORS = ["paylater_not_eligible", "paylater_rtp_try_later", "paylater_not_eligible", "AMOUNT_OUT_OF_RANGE"]

export function sampleHistory(opts: HistoryOptions): { attempts: AttemptInsert[]; refunds: RefundInsert[] } {
  const rnd = prng(opts.seed ?? 33)
  const prefix = opts.prefix ?? "hist"
  const end = opts.end.getTime()
  const span = opts.days * 24 * 60 * MINUTE
  const orders = [...(opts.orderIds ?? [])]
  const attempts: AttemptInsert[] = []
  const refunds: RefundInsert[] = []
  const iso = (t: number) => new Date(Math.floor(t)).toISOString()
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const amountText = () => (300 + Math.floor(rnd() * 470_000) / 100).toFixed(2)
  let awkward = 0

  const attempt = (i: number, n: number, kind: string, created: number, over: Partial<AttemptInsert>): AttemptInsert => {
    const base = `${prefix}_${i}`
    const amount = over.amount ?? amountText()
    const expiry = kind === "link" ? 60 : 15
    const row: AttemptInsert = {
      id: `platm_${base}_${n}`,
      paylater_order_id: n === 0 ? `payses_${base}` : `payses_${base}-${n + 1}`,
      kind,
      session_id: `payses_${base}${n ? `_${n}` : ""}`,
      provider_id: kind === "link" ? "pp_paylater_paylater" : "pp_paylater-rtp_paylater",
      payment_collection_id: `pay_col_${base}`,
      cart_id: kind === "point_of_sale" ? null : `cart_${base}`,
      order_id: null,
      payment_id: null,
      amount,
      raw_amount: { value: amount, precision: 20 },
      currency_code: "qar",
      expires_at: iso(created + expiry * MINUTE),
      state: "open",
      last_status_code: null,
      last_status_at: null,
      last_status_signal: null,
      paid_at: null,
      paylater_ref: null,
      superseded_by: null,
      session_gone_at: null,
      start_error: null,
      next_ask_at: iso(end + 365 * 24 * 60 * MINUTE),
      detail: kind === "link" ? null : { mobile_number_masked: `974*****${String(100 + Math.floor(rnd() * 900))}` },
      created_at: iso(created),
      updated_at: iso(created),
    }
    return { ...row, ...over, amount, raw_amount: { value: amount, precision: 20 } }
  }
  const paid = (row: AttemptInsert, at: number, placed: boolean): AttemptInsert => {
    let ref = `PL${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}`
    if (opts.awkwardRefs && awkward < AWKWARD_REFS.length) ref = AWKWARD_REFS[awkward++]
    const orderId = placed ? orders.shift() ?? `order_${row.id}` : null
    // Some payments were asked about again later (an admin's check): their last status moved on,
    // their paid time did not.
    const asked = rnd() < 0.1 ? at + (1 + rnd() * 20 * 24 * 60) * MINUTE : at
    return { ...row, state: "paid", last_status_code: 2, last_status_at: iso(Math.min(asked, end - MINUTE)), paid_at: iso(at), last_status_signal: "webhook", paylater_ref: ref, order_id: orderId, payment_id: placed ? `pay_${row.id}` : null }
  }
  const ended = (row: AttemptInsert, state: "declined" | "expired", at: number): AttemptInsert => ({
    ...row,
    state,
    last_status_code: 3,
    last_status_at: iso(at),
    last_status_signal: "webhook",
  })

  for (let i = 0; i < opts.checkouts; i++) {
    const created = end - span + rnd() * (span - 2 * 60 * MINUTE)
    const roll = rnd()
    const kind = roll < 0.55 ? "link" : roll < 0.9 ? "request_to_pay" : "point_of_sale"
    const wait = (30 + rnd() * 1200) * 1000
    const r = rnd()
    let rows: AttemptInsert[]
    if (r < 0.56) rows = [paid(attempt(i, 0, kind, created, {}), created + wait, true)]
    else if (r < 0.58) rows = [paid(attempt(i, 0, kind, created, {}), created + wait, false)]
    else if (r < 0.59) {
      // Paid twice: the first placed the order, the second is money without one.
      const first = paid(attempt(i, 0, kind, created, {}), created + wait, true)
      rows = [first, paid(attempt(i, 1, "link", created + 2 * MINUTE, { amount: first.amount }), created + 2 * MINUTE + wait, false)]
    } else if (r < 0.64) {
      // A declined Request to Pay, then a link: paid most of the time.
      const rtp = ended(attempt(i, 0, "request_to_pay", created, {}), "declined", created + wait)
      const link = attempt(i, 1, "link", created + wait + MINUTE, { amount: rtp.amount })
      rows = [{ ...rtp, superseded_by: link.paylater_order_id }, rnd() < 0.8 ? paid(link, created + 2 * wait + MINUTE, true) : ended(link, "expired", created + wait + 61 * MINUTE)]
    } else if (r < 0.76) rows = [ended(attempt(i, 0, kind, created, {}), "declined", created + wait)]
    else if (r < 0.87) rows = [ended(attempt(i, 0, kind, created, {}), "expired", created + 62 * MINUTE)]
    else if (r < 0.94) rows = [attempt(i, 0, kind, created, { session_gone_at: iso(created + wait) })]
    else if (r < 0.97) rows = [attempt(i, 0, kind, created, { state: "never_started", start_error: pick(kind === "request_to_pay" ? RTP_START_ERRORS : START_ERRORS) })]
    else rows = [attempt(i, 0, kind, created, { start_error: "TIMEOUT" })]
    attempts.push(...rows)

    for (const row of rows) {
      if (row.state !== "paid" || rnd() >= 0.12) continue
      const paidAt = Date.parse(row.paid_at as string)
      const sent = Math.min(end - MINUTE, paidAt + (15 + rnd() * 20 * 24 * 60) * MINUTE)
      if (sent <= paidAt) continue
      const full = rnd() < 0.5
      const amount = full ? row.amount : (Math.floor(Number(row.amount.replace(".", "")) * 0.3) / 100).toFixed(2)
      const status = rnd() < 0.1 ? "failed" : "succeeded"
      refunds.push({
        id: `plref_${row.id}`,
        paylater_order_id: row.paylater_order_id,
        amount,
        raw_amount: { value: amount, precision: 20 },
        full,
        status,
        sent_at: iso(sent),
        settled_at: iso(sent + 2000),
        created_at: iso(sent),
        updated_at: iso(sent + 2000),
      })
    }
  }
  // Written in the order a store writes them (by creation), so the table's physical order follows
  // time as it does on a live store (what the planner's index choices depend on).
  const byCreation = (a: { created_at: string }, b: { created_at: string }) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0)
  return { attempts: attempts.sort(byCreation), refunds: refunds.sort(byCreation) }
}

/** Inserts rows in batches (JSON → json_populate_recordset: one statement per batch, not per row). */
export async function insertRows(knex: Knex, table: "paylater_attempt" | "paylater_refund_attempt", rows: object[], batch = 5000): Promise<void> {
  if (!rows.length) return
  const columns = Object.keys(rows[0])
  const list = columns.map((c) => `"${c}"`).join(", ")
  for (let i = 0; i < rows.length; i += batch) {
    await knex.raw(`insert into "${table}" (${list}) select ${list} from json_populate_recordset(null::"${table}", ?::json)`, [
      JSON.stringify(rows.slice(i, i + batch)),
    ])
  }
}

/** Writes a history into the ledger; answers it. */
export async function seedHistory(knex: Knex, opts: HistoryOptions) {
  const history = sampleHistory(opts)
  await insertRows(knex, "paylater_attempt", history.attempts)
  await insertRows(knex, "paylater_refund_attempt", history.refunds)
  return history
}

/** Every ledger row as the definitions take them: what the test computes the truth from. */
export async function readFunnelRows(knex: Knex): Promise<{ attempts: FunnelAttempt[]; refunds: FunnelRefund[] }> {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string))
  const { rows: a } = await knex.raw(`select * from paylater_attempt where deleted_at is null`)
  const { rows: r } = await knex.raw(`select * from paylater_refund_attempt where deleted_at is null`)
  return {
    attempts: a.map((x: Record<string, any>) => ({
      paylater_order_id: x.paylater_order_id,
      kind: x.kind,
      cart_id: x.cart_id,
      payment_collection_id: x.payment_collection_id,
      session_id: x.session_id,
      amount: String(x.amount),
      currency_code: x.currency_code,
      state: x.state,
      created_at: new Date(x.created_at),
      last_status_at: date(x.last_status_at),
      paid_at: date(x.paid_at),
      expires_at: date(x.expires_at),
      order_id: x.order_id,
      superseded_by: x.superseded_by,
      session_gone_at: date(x.session_gone_at),
      start_error: x.start_error,
    })),
    refunds: r.map((x: Record<string, any>) => ({ paylater_order_id: x.paylater_order_id, amount: String(x.amount), status: x.status, sent_at: new Date(x.sent_at) })),
  }
}

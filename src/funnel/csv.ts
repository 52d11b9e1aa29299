import { once } from "node:events"
import type { Writable } from "node:stream"
import type { Knex } from "knex"
import { localTimestamp, type Period } from "./period"
import { paymentsPage, type PaymentCursor, type PaymentRow } from "./payments-sql"

/**
 * The finance report as CSV: RFC 4180 (comma, CRLF, fields with a comma, quote or line break quoted
 * and quotes doubled), UTF-8 with a byte order mark so Excel opens Arabic text intact. Written in
 * batches from the keyset-paged query: memory stays flat whatever the period.
 */

export const CSV_BOM = "\uFEFF"
export const CSV_BATCH = 5000

export const CSV_COLUMNS = [
  "paylater_order_id",
  "paylater_reference",
  "medusa_order",
  "method",
  "paid_at",
  "amount",
  "refunded",
  "net",
  "status",
  "currency",
  "mobile",
] as const

/** One field: quoted when it must be; text a spreadsheet would run as a formula gets a leading '. */
export function csvField(value: string | number | null | undefined, { text = true } = {}): string {
  let s = value === null || value === undefined ? "" : String(value)
  if (text && /^[=+@\t\r-]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export const csvLine = (fields: string[]) => `${fields.join(",")}\r\n`

export function paymentCsvLine(row: PaymentRow, zone: string): string {
  const amount = (v: string) => csvField(v, { text: false })
  return csvLine([
    csvField(row.paylater_order_id),
    csvField(row.paylater_ref),
    csvField(row.order_display_id),
    csvField(row.method),
    csvField(localTimestamp(new Date(row.paid_at), zone)),
    amount(row.amount),
    amount(row.refunded),
    amount(row.net),
    csvField(row.status),
    csvField(row.currency_code.toUpperCase()),
    csvField(row.mobile_number_masked),
  ])
}

/** Writes the whole report to `out`, waiting for it to drain; stops early if it closes. Answers the rows written. */
export async function writePaymentsCsv(
  knex: Knex,
  out: Writable,
  input: { period: Period; now: Date; method?: string | null; batch?: number }
): Promise<number> {
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, "drain"), once(out, "close")])
  }
  await write(CSV_BOM + csvLine([...CSV_COLUMNS]))
  let after: PaymentCursor | null = null
  let rows = 0
  do {
    if (out.destroyed || out.writableEnded) break
    const page = await paymentsPage(knex, { period: input.period, now: input.now, method: input.method, after, limit: input.batch ?? CSV_BATCH })
    if (page.rows.length) await write(page.rows.map((r) => paymentCsvLine(r, input.period.time_zone)).join(""))
    rows += page.rows.length
    after = page.next
  } while (after)
  return rows
}

import { once } from "node:events"
import type { Writable } from "node:stream"
import type { Knex } from "knex"
import type { Period } from "./period"
import { paymentsPage, type PaymentCursor, type PaymentRow } from "./payments-sql"

/**
 * The finance report as CSV: RFC 4180 (comma, CRLF, fields with a comma, quote or line break quoted
 * and quotes doubled), UTF-8 with a byte order mark so Excel opens Arabic text intact. Written in
 * batches from the keyset-paged query: memory stays flat whatever the period.
 */

export const CSV_BOM = "\uFEFF"
// Small on purpose: a 5,000-row page lived through the write and the next page's read long enough to
// be promoted to V8's old space, which then grew with the download (+425 MiB RSS over 241,410 rows,
// and GC took most of the CPU); 1,000-row pages die young (+31 MiB, twice the rows/s). BENCHMARKS.md.
export const CSV_BATCH = 1000

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

export function paymentCsvLine(row: PaymentRow): string {
  const amount = (v: string) => csvField(v, { text: false })
  return csvLine([
    csvField(row.paylater_order_id),
    csvField(row.paylater_ref),
    csvField(row.order_display_id),
    csvField(row.method),
    csvField(row.paid_at_local),
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
  const gone = () => out.destroyed || out.writableEnded
  const write = async (chunk: string) => {
    if (out.write(chunk) || gone()) return
    // Backpressure: wait for the client to take what is buffered (or to leave), then drop the other listener.
    const stop = new AbortController()
    await Promise.race([once(out, "drain", { signal: stop.signal }), once(out, "close", { signal: stop.signal })]).catch(() => undefined)
    stop.abort()
  }
  const fetchPage = (after: PaymentCursor | null) => {
    const page = paymentsPage(knex, { period: input.period, now: input.now, method: input.method, after, limit: input.batch ?? CSV_BATCH })
    // Awaited later; a failure meanwhile must not count as an unhandled rejection.
    page.catch(() => undefined)
    return page
  }
  await write(CSV_BOM + csvLine([...CSV_COLUMNS]))
  let rows = 0
  let next: ReturnType<typeof fetchPage> | null = fetchPage(null)
  while (next && !gone()) {
    const page: Awaited<ReturnType<typeof fetchPage>> = await next
    // The next page is read while this one is formatted and sent: PostgreSQL and Node work at once,
    // and at most two pages are held, whatever the period.
    next = page.next ? fetchPage(page.next) : null
    let chunk = ""
    for (const row of page.rows) chunk += paymentCsvLine(row)
    if (chunk) await write(chunk)
    rows += page.rows.length
  }
  return rows
}

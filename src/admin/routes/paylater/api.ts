/** The report routes as the page calls them (same origin: the dashboard's session cookie authenticates). */

// The shapes the routes answer, from the server code that builds them (types only: nothing of it is bundled).
import type { Counts, FunnelReport, MethodFunnel, MethodKey } from "../../../funnel/definitions"
import type { PaymentRow } from "../../../funnel/payments-sql"
import type { AttemptRow } from "../../../funnel/attempts-sql"

export type { Counts, MethodFunnel, MethodKey }
export type Method = Exclude<MethodKey, "total">
export type PeriodView = { from: string; to: string; time_zone: string; days: number }
export type Funnel = FunnelReport & { period: PeriodView; previous: PeriodView }
export type Payment = Omit<PaymentRow, "method"> & { method: Method }
export type Attempt = Omit<AttemptRow, "method"> & { method: Method }

export type PeriodChoice = { period: "today" | "7d" | "30d" | "90d" } | { period: "custom"; from: string; to: string }

export function periodQuery(choice: PeriodChoice, extra: Record<string, string | number | null | undefined> = {}): string {
  const params = new URLSearchParams({ period: choice.period })
  if (choice.period === "custom") {
    params.set("from", choice.from)
    params.set("to", choice.to)
  }
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined && v !== "") params.set(k, String(v))
  return params.toString()
}

export async function report<T>(path: string, query: string): Promise<T> {
  const res = await fetch(`/admin/paylater/reports/${path}?${query}`, { credentials: "include" })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(body?.message ?? `Request failed (${res.status})`)
  return body as T
}

export const csvUrl = (query: string) => `/admin/paylater/reports/payments/csv?${query}`

/** "12345.50" → "12,345.50 QAR", on the text (no float). */
export function qar(amount: string): string {
  const [whole, fraction = "00"] = amount.split(".")
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction} QAR`
}

export const percent = (ratio: number | null) => (ratio === null ? "—" : `${(ratio * 100).toFixed(1)}%`)

export function duration(seconds: number | null): string {
  if (seconds === null) return "—"
  if (seconds < 90) return `${seconds} s`
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}

export const METHOD_LABEL: Record<MethodKey, string> = {
  link: "Payment link",
  request_to_pay: "Request to Pay",
  point_of_sale: "Point of sale",
  total: "Total",
}

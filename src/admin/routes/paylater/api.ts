/** The report routes as the page calls them (same origin: the dashboard's session cookie authenticates). */

export type Counts = {
  started: number
  paid: number
  placed: number
  placing: number
  paid_without_order: number
  declined: number
  expired: number
  abandoned: number
  open: number
}

export type MethodFunnel = {
  checkouts: Counts
  attempts: Counts
  conversion: { checkouts: number | null; attempts: number | null }
  previous_conversion: { checkouts: number | null; attempts: number | null }
  conversion_change: { checkouts: number | null; attempts: number | null }
  time_to_pay: { median_s: number | null; p90_s: number | null }
  money: { payments: number; paid: string; refunded: string; net: string }
  refunds: { count: number; amount: string }
}

export type Method = "link" | "request_to_pay" | "point_of_sale"
export type MethodKey = Method | "total"

export type PeriodView = { from: string; to: string; time_zone: string; days: number }

export type Funnel = {
  period: PeriodView
  previous: PeriodView
  methods: Record<MethodKey, MethodFunnel>
  request_to_pay: { pushes_sent: number; approved: number; declined: number; expired: number; abandoned: number; open: number }
  errors: Array<{ code: string; count: number }>
  daily: Array<{ date: string; paid: string; payments: number; started: number; converted: number; conversion: number | null }>
}

export type Payment = {
  paylater_order_id: string
  paylater_ref: string | null
  order_id: string | null
  order_display_id: number | null
  method: Method
  paid_at: string
  amount: string
  refunded: string
  net: string
  status: string
  currency_code: string
  mobile_number_masked: string | null
}

export type Attempt = {
  paylater_order_id: string
  paylater_ref: string | null
  method: Method
  outcome: string
  created_at: string
  amount: string
  cart_id: string | null
  order_id: string | null
  start_error: string | null
  mobile_number_masked: string | null
}

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

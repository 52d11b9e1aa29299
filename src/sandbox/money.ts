/**
 * Money as integer dirhams (1 QAR = 100 dirhams). Amounts arrive as JSON numbers or decimal text and
 * are compared, split and summed only as integers, so no binary floating point touches money.
 */

// 13 integer digits keeps every dirham value far below Number.MAX_SAFE_INTEGER.
const DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/

export type ParsedAmount =
  | { ok: true; dirhams: number }
  | { ok: false; reason: "missing" | "not_a_number" | "too_many_decimals" | "negative" }

/**
 * Reads a JSON number or a decimal string with at most two decimals. A number's shortest decimal
 * text is what the merchant wrote (350.1 stays "350.1"), so checking its text is exact enough.
 */
export function parseAmount(value: unknown): ParsedAmount {
  if (value === undefined || value === null || value === "") {
    return { ok: false, reason: "missing" }
  }
  let text: string
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { ok: false, reason: "not_a_number" }
    text = String(value)
  } else if (typeof value === "string") {
    text = value.trim()
  } else {
    return { ok: false, reason: "not_a_number" }
  }
  let negative = false
  if (text.startsWith("-")) {
    negative = true
    text = text.slice(1)
  }
  if (/[eE]/.test(text)) {
    return { ok: false, reason: /\.\d{3,}|e-/i.test(text) ? "too_many_decimals" : "not_a_number" }
  }
  if (/^\d+\.\d{3,}$/.test(text)) return { ok: false, reason: "too_many_decimals" }
  const m = DECIMAL.exec(text)
  if (!m) return { ok: false, reason: "not_a_number" }
  const dirhams = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"))
  if (negative && dirhams !== 0) return { ok: false, reason: "negative" }
  return { ok: true, dirhams }
}

/** Strict form used where PayLater publishes a string with exactly two decimals ("120.00"). */
export function parseTwoDecimalString(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{1,13}\.\d{2}$/.test(value)) return null
  const [whole, frac] = value.split(".")
  return Number(whole) * 100 + Number(frac)
}

/** "350.00" */
export function formatAmount(dirhams: number): string {
  const whole = Math.floor(dirhams / 100)
  const frac = dirhams % 100
  return `${whole}.${String(frac).padStart(2, "0")}`
}

/** Bounds as PayLater prints them in "Amount must be between 300 and 25000": no ".00" when whole. */
export function formatBound(dirhams: number): string {
  return dirhams % 100 === 0 ? String(dirhams / 100) : formatAmount(dirhams)
}

/** "1,234.50" for pages. */
export function displayAmount(dirhams: number): string {
  const [whole, frac] = formatAmount(dirhams).split(".")
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`
}

/**
 * Splits a total into `count` instalments of whole dirhams; the first one carries the remainder so
 * that the parts always add up to the total exactly.
 */
export function splitInstalments(totalDirhams: number, count = 4): number[] {
  const base = Math.floor(totalDirhams / count)
  const parts = new Array<number>(count).fill(base)
  parts[0] += totalDirhams - base * count
  return parts
}

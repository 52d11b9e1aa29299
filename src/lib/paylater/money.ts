import { PayLaterError } from "./errors"

/**
 * QAR amounts as decimal text in major units ("350.00"), computed as BigInt hundredths (dirhams) so
 * that binary floating point never touches money. JS numbers are accepted only as input and are read
 * through their shortest decimal text (`String(350.5)` is "350.5"), never through arithmetic.
 */

export type AmountInput = string | number

// Bounds the work done on hostile input; real amounts are far shorter.
const MAX_AMOUNT_TEXT = 40
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/

interface DecimalParts {
  negative: boolean
  whole: string
  fraction: string
}

function describe(value: unknown): string {
  if (typeof value === "string") {
    return value.length > 20 ? `"${value.slice(0, 20)}…"` : `"${value}"`
  }
  return typeof value === "number" ? String(value) : typeof value
}

function invalid(label: string, value: unknown, why: string): PayLaterError {
  return new PayLaterError("VALIDATION", `PayLater: ${label} ${why} (got ${describe(value)})`, {
    details: { field: label },
  })
}

function splitDecimal(value: unknown, label: string): DecimalParts {
  let text: string
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw invalid(label, value, "must be a finite number")
    }
    text = String(value)
  } else if (typeof value === "string") {
    text = value
  } else {
    throw invalid(label, value, 'must be decimal text such as "350.00"')
  }
  const match = text.length <= MAX_AMOUNT_TEXT ? DECIMAL.exec(text) : null
  if (!match) {
    throw invalid(label, value, 'must be a plain decimal number such as "350.00"')
  }
  return { negative: match[1] === "-", whole: match[2], fraction: match[3] ?? "" }
}

function toMinor(parts: DecimalParts, roundUp: boolean): bigint {
  const hundredths = BigInt(parts.whole + parts.fraction.slice(0, 2).padEnd(2, "0"))
  const magnitude = roundUp ? hundredths + 1n : hundredths
  return parts.negative ? -magnitude : magnitude
}

/** Strict: decimal text or number with at most two decimals → hundredths. Throws VALIDATION. */
export function parseMinorUnits(value: AmountInput, label = "amount"): bigint {
  const parts = splitDecimal(value, label)
  if (parts.fraction.length > 2) {
    throw invalid(label, value, "must have at most two decimals (round it first, e.g. with toTwoDecimals)")
  }
  return toMinor(parts, false)
}

/** Any decimal precision → hundredths, rounding half away from zero on the digits themselves. */
function roundToMinorUnits(value: AmountInput, label = "amount"): bigint {
  const parts = splitDecimal(value, label)
  const roundUp = parts.fraction.length > 2 && parts.fraction.charCodeAt(2) >= 0x35 /* "5" */
  return toMinor(parts, roundUp)
}

/** Hundredths → "350.00". */
export function formatMinorUnits(minor: bigint): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(3, "0")
  const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`
  return negative ? `-${text}` : text
}

/** Strict canonical form: "350" → "350.00", "350.5" → "350.50"; more than two decimals throws. */
export function normalizeAmount(value: AmountInput, label = "amount"): string {
  return formatMinorUnits(parseMinorUnits(value, label))
}

/** For callers holding unrounded values (Medusa sends e.g. 10.005): "10.005" → "10.01". */
export function toTwoDecimals(value: AmountInput): string {
  return formatMinorUnits(roundToMinorUnits(value))
}

export function compareAmounts(a: AmountInput, b: AmountInput): -1 | 0 | 1 {
  const x = parseMinorUnits(a)
  const y = parseMinorUnits(b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function addAmounts(a: AmountInput, b: AmountInput): string {
  return formatMinorUnits(parseMinorUnits(a) + parseMinorUnits(b))
}

/**
 * Checks format and the outlet's configured range; returns the canonical text to send.
 * VALIDATION for bad text, AMOUNT_OUT_OF_RANGE (details.min/max) outside the range.
 */
export function assertAmountInRange(
  amount: AmountInput,
  config: { minAmount: string; maxAmount: string },
  label = "amount"
): string {
  const value = parseMinorUnits(amount, label)
  const min = parseMinorUnits(config.minAmount, "minAmount")
  const max = parseMinorUnits(config.maxAmount, "maxAmount")
  if (value < min || value > max) {
    const minText = formatMinorUnits(min)
    const maxText = formatMinorUnits(max)
    throw new PayLaterError(
      "AMOUNT_OUT_OF_RANGE",
      `Amount must be between ${minText} and ${maxText} QAR`,
      { details: { min: minText, max: maxText, amount: formatMinorUnits(value) } }
    )
  }
  return formatMinorUnits(value)
}

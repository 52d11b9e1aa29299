import { PayLaterError } from "./errors"

/**
 * Qatar mobile numbers as PayLater wants them: country code, no plus sign, "97451118021".
 * Qatar mobiles are 8 digits starting with 3, 5, 6 or 7.
 */

// Real input is short; the bound keeps hostile input cheap.
const MAX_INPUT_LENGTH = 40
const SEPARATORS = /[\s\-.()]/g
const QATAR_MOBILE = /^(?:\+974|00974|974)?([3567]\d{7})$/
// Shoppers in Qatar often type Arabic-Indic (٠-٩) or Eastern Arabic-Indic (۰-۹) digits.
const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g

function toAsciiDigits(text: string): string {
  return text.replace(ARABIC_DIGITS, (d) => String((d.charCodeAt(0) & 0x0f) % 10))
}

const NOT_A_MOBILE =
  "PayLater: the mobile number must be a Qatar mobile number: 8 digits starting with 3, 5, 6 or 7, " +
  "optionally preceded by +974 (e.g. 5111 8021 or +974 5111 8021)"

/** Returns "974XXXXXXXX" or throws VALIDATION (the message never repeats the input). */
export function normalizeQatarMobile(input: unknown): string {
  let text: string
  if (typeof input === "string") {
    text = input
  } else if (typeof input === "number" && Number.isSafeInteger(input) && input > 0) {
    text = String(input)
  } else {
    throw new PayLaterError("VALIDATION", NOT_A_MOBILE, { details: { field: "mobileNumber" } })
  }
  const match =
    text.length <= MAX_INPUT_LENGTH
      ? QATAR_MOBILE.exec(toAsciiDigits(text).replace(SEPARATORS, ""))
      : null
  if (!match) {
    throw new PayLaterError("VALIDATION", NOT_A_MOBILE, { details: { field: "mobileNumber" } })
  }
  return `974${match[1]}`
}

function isQatarMobile(input: unknown): boolean {
  try {
    normalizeQatarMobile(input)
    return true
  } catch {
    return false
  }
}

/**
 * For logs and session data: "97451118021" → "974*****021". Input that is not a Qatar mobile keeps
 * only its last two characters.
 */
export function maskMobile(input: unknown): string {
  if (!isQatarMobile(input)) {
    const text = typeof input === "string" ? input : String(input ?? "")
    return text.length <= 2 ? "*".repeat(text.length) : "*".repeat(Math.min(text.length - 2, 20)) + text.slice(-2)
  }
  const normalized = normalizeQatarMobile(input)
  return `${normalized.slice(0, 3)}*****${normalized.slice(-3)}`
}

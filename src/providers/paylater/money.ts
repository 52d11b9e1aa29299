import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { addAmounts, compareAmounts, normalizeAmount, toTwoDecimals } from "../../lib/paylater"

/**
 * The provider's side of money: Medusa hands amounts over as numbers, decimal text or BigNumber
 * (also in its raw `{ value, precision }` form). They are read exactly with Medusa's MathBN and
 * handed to the client's money module (src/lib/paylater/money.ts, integer dirhams), which does all
 * the arithmetic. No binary floating point ever touches an amount.
 */

/** The exact decimal text of a Medusa amount: toFixed() without digits never uses exponent notation. */
function exactText(amount: BigNumberInput): string {
  const value = MathBN.convert(amount)
  if (!value.isFinite()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "The amount is not a valid number")
  }
  return value.toFixed()
}

/**
 * Any Medusa amount → two-decimal QAR text, rounded half up (350.005 → "350.01"). For amounts
 * Medusa computes (cart totals with tax), never for an amount a person typed to move money back.
 */
export function toAmountText(amount: BigNumberInput): string {
  return toTwoDecimals(exactText(amount))
}

/**
 * What a stored record holds (a ledger row, or Medusa's session, payment, capture or refund), as
 * two-decimal QAR text: its exact value (`raw_amount`, the BigNumber column) when loaded, else the
 * numeric column.
 */
export function storedAmountText(row: { amount: BigNumberInput; raw_amount?: BigNumberInput | null }): string {
  return toAmountText(row.raw_amount ?? row.amount)
}

/**
 * A refund amount as entered, exactly: PayLater moves whole dirhams, so 33.335 is refused rather
 * than sent as 33.34 (and 99.995 of a 100.00 payment never becomes a full refund by rounding).
 */
export function toExactRefundAmount(amount: BigNumberInput): string {
  const text = exactText(amount)
  try {
    return normalizeAmount(text)
  } catch {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `A PayLater refund is made in whole dirhams: ${text} QAR has more than two decimals. Enter the amount with at most two decimals (e.g. ${toTwoDecimals(text)}).`
    )
  }
}

export function amountEquals(a: string, b: string): boolean {
  return compareAmounts(a, b) === 0
}

export function isPositive(amount: string): boolean {
  return compareAmounts(amount, "0") > 0
}

export function isWithin(amount: string, min: string, max: string): boolean {
  return compareAmounts(amount, min) >= 0 && compareAmounts(amount, max) <= 0
}

export { addAmounts }

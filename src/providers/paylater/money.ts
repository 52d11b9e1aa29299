import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { addAmounts, compareAmounts, toTwoDecimals } from "../../lib/paylater"

/**
 * The provider's side of money: Medusa hands amounts over as numbers, decimal text or BigNumber
 * (also in its raw `{ value, precision }` form). They are read exactly with Medusa's MathBN and
 * handed to the client's money module (src/lib/paylater/money.ts, integer dirhams), which does all
 * the arithmetic. No binary floating point ever touches an amount.
 */

/** Any Medusa amount → two-decimal QAR text, rounded half up (350.005 → "350.01"). */
export function toAmountText(amount: BigNumberInput): string {
  const value = MathBN.convert(amount)
  if (!value.isFinite()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "The amount is not a valid number")
  }
  // toFixed() without digits: the exact decimal text, never exponent notation.
  return toTwoDecimals(value.toFixed())
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

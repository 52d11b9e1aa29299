import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"

/**
 * Money crosses into PayLater as two-decimal text. Everything here goes through Medusa's MathBN
 * (bignumber.js) so that no binary floating point ever touches an amount.
 */

// bignumber.js rounding mode ROUND_HALF_UP: 350.005 → 350.01, the way a shopper would round.
const ROUND_HALF_UP = 4

/** Accepts numbers, decimal text, Medusa BigNumber and its raw `{ value, precision }` form. */
export function toAmountText(amount: BigNumberInput): string {
  const value = MathBN.convert(amount)
  if (!value.isFinite()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "The amount is not a valid number")
  }
  return value.toFixed(2, ROUND_HALF_UP)
}

export function amountEquals(a: string, b: string): boolean {
  return MathBN.eq(a, b)
}

export function isPositive(amount: string): boolean {
  return MathBN.gt(amount, 0)
}

export function isWithin(amount: string, min: string, max: string): boolean {
  return MathBN.gte(amount, min) && MathBN.lte(amount, max)
}

export function addAmounts(a: string, b: string): string {
  return MathBN.add(a, b).toFixed(2, ROUND_HALF_UP)
}

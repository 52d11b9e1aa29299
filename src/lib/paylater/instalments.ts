import { PayLaterError } from "./errors"
import { formatMinorUnits, parseMinorUnits, type AmountInput } from "./money"

/**
 * Instalment plans for an amount, computed locally: PayLater publishes no plan operation, so the
 * split is the store's own arithmetic, in hundredths (BigInt) through the money module. The parts
 * always add up to the total; the hundredths that do not divide evenly go on the first instalment
 * (the one paid at checkout), so every later instalment is the same amount.
 */

export interface InstalmentPlanSettings {
  /** Numbers of instalments offered, e.g. [4]. */
  counts: number[]
  /** Days between two instalments; the first is paid at checkout (day 0). */
  intervalDays: number
}

export interface Instalment {
  /** 1-based. */
  number: number
  /** Two-decimal QAR text. */
  amount: string
  /** Days after checkout this instalment falls due (0 = paid at checkout). */
  due_after_days: number
}

export interface InstalmentPlan {
  count: number
  /** The amount of every instalment after the first; the first may be up to count-1 hundredths more. */
  instalment_amount: string
  /** The first instalment, which carries any remainder. */
  first_amount: string
  interval_days: number
  instalments: Instalment[]
}

export const MIN_INSTALMENTS = 2
export const MAX_INSTALMENTS = 12

/** Splits `total` into `count` parts that add up exactly; the remainder goes on the first part. */
export function splitIntoInstalments(total: AmountInput, count: number, intervalDays: number): InstalmentPlan {
  if (!Number.isInteger(count) || count < MIN_INSTALMENTS || count > MAX_INSTALMENTS) {
    throw new PayLaterError("VALIDATION", `PayLater: an instalment plan has ${MIN_INSTALMENTS} to ${MAX_INSTALMENTS} instalments (got ${count})`, {
      details: { field: "count" },
    })
  }
  const minor = parseMinorUnits(total, "amount")
  if (minor <= 0n) {
    throw new PayLaterError("VALIDATION", "PayLater: the amount to split must be greater than 0", {
      details: { field: "amount" },
    })
  }
  const parts = BigInt(count)
  const each = minor / parts
  const first = each + (minor % parts)
  const instalments = Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    amount: formatMinorUnits(i === 0 ? first : each),
    due_after_days: i * intervalDays,
  }))
  return {
    count,
    instalment_amount: formatMinorUnits(each),
    first_amount: formatMinorUnits(first),
    interval_days: intervalDays,
    instalments,
  }
}

/** Every configured plan for `total`, fewest instalments first. */
export function instalmentPlans(total: AmountInput, settings: InstalmentPlanSettings): InstalmentPlan[] {
  return [...new Set(settings.counts)]
    .sort((a, b) => a - b)
    .map((count) => splitIntoInstalments(total, count, settings.intervalDays))
}

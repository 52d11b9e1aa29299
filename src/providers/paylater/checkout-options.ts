import { MAX_INSTALMENTS, MIN_INSTALMENTS, type InstalmentPlanSettings } from "../../lib/paylater"
import { wholeNumberOption } from "./reconcile-options"

/**
 * Options for what the shopper sees before paying: the instalment plans shown on product, cart and
 * checkout pages (GET /store/paylater/instalments), and the shopper look-up made before a payment is
 * started. PayLater publishes neither its plan structure nor a plan operation, so the plans are the
 * merchant's statement of their PayLater agreement (docs/instalments.md says why the defaults are
 * what they are).
 */

export interface CheckoutOptionsInput {
  /** Numbers of instalments to show, e.g. [4] or "3,4" (default [4]). */
  instalmentCounts?: number[] | number | string
  /** Days between two instalments; the first is paid at checkout (default 30). */
  instalmentIntervalDays?: number | string
  /**
   * Shopper look-up (mobile + email → spending limit) before a payment starts: "request-to-pay"
   * (default) before every push, "all" also before a payment link is created (when the storefront
   * sends the shopper's mobile number and email), "off" never.
   */
  eligibilityCheck?: "request-to-pay" | "all" | "off"
  /**
   * How long the look-up may take before checkout goes on without it (default 3000 ms); also how long
   * a new start waits for PayLater's answer about the open attempt it replaces.
   */
  eligibilityTimeoutMs?: number | string
}

export type EligibilityMode = "request-to-pay" | "all" | "off"

export interface CheckoutSettings {
  plans: InstalmentPlanSettings
  eligibility: { mode: EligibilityMode; timeoutMs: number }
}

export const CHECKOUT_DEFAULTS: CheckoutSettings = {
  plans: { counts: [4], intervalDays: 30 },
  eligibility: { mode: "request-to-pay", timeoutMs: 3000 },
}

function readCounts(value: unknown, problems: string[]): number[] {
  if (value === undefined || value === null || value === "") {
    return CHECKOUT_DEFAULTS.plans.counts
  }
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value]
  const counts = items.map((item) => (typeof item === "string" && /^\s*\d{1,2}\s*$/.test(item) ? Number(item) : item))
  const valid = counts.length > 0 && counts.every((n) => Number.isInteger(n) && (n as number) >= MIN_INSTALMENTS && (n as number) <= MAX_INSTALMENTS)
  if (!valid) {
    problems.push(
      `instalmentCounts must list whole numbers between ${MIN_INSTALMENTS} and ${MAX_INSTALMENTS} (the plans of your PayLater agreement, e.g. [4])`
    )
    return CHECKOUT_DEFAULTS.plans.counts
  }
  return [...new Set(counts as number[])].sort((a, b) => a - b)
}

function readMode(value: unknown, problems: string[]): EligibilityMode {
  if (value === undefined || value === null || value === "") {
    return CHECKOUT_DEFAULTS.eligibility.mode
  }
  if (value === "request-to-pay" || value === "all" || value === "off") {
    return value
  }
  problems.push('eligibilityCheck must be "request-to-pay", "all" or "off"')
  return CHECKOUT_DEFAULTS.eligibility.mode
}

/** Reads the options; `problems` collects what is wrong (reported with every other option problem). */
export function readCheckoutOptions(raw: Record<string, unknown>, problems: string[]): CheckoutSettings {
  return {
    plans: {
      counts: readCounts(raw.instalmentCounts, problems),
      intervalDays: wholeNumberOption(
        raw,
        "instalmentIntervalDays",
        1,
        92,
        CHECKOUT_DEFAULTS.plans.intervalDays,
        "days between two instalments",
        problems
      ),
    },
    eligibility: {
      mode: readMode(raw.eligibilityCheck, problems),
      timeoutMs: wholeNumberOption(
        raw,
        "eligibilityTimeoutMs",
        100,
        15000,
        CHECKOUT_DEFAULTS.eligibility.timeoutMs,
        "milliseconds the shopper look-up (or the check of the attempt a start replaces) may take before checkout goes on without it",
        problems
      ),
    },
  }
}

import { MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { logRef, maskMobile, normalizeQatarMobile, type PayLaterApi, type Shopper } from "../../lib/paylater"
import { SHOPPER_MESSAGES } from "../../storefront/messages"
import type { EligibilityMode } from "./checkout-options"
import { isWithin } from "./money"
import type { StoreStartFacts } from "./request-context"

/**
 * The shopper look-up before a payment starts (PayLater's `shopper` operation: mobile + email →
 * spending limits). A shopper with no account, or with less spending room than the order, is told
 * at once instead of receiving a push or a link that can only fail.
 *
 * Through the store API (src/api/store/paylater/start-guard.ts) the look-up is the gate of a Request
 * to Pay: it is made with the cart's own email, read server-side, and only a number it matches
 * receives the push; a look-up that fails or is slow sends nothing (the shopper is offered the
 * payment link). Before a link it stays advice: a link reaches nobody's phone.
 *
 * Server-side callers (the admin's point of sale) keep the old rule: advice, skipped when no email
 * was given (PayLater's look-up needs both).
 */

/**
 * The machine-readable `code` on the refusal, as for Request to Pay (request-to-pay/errors.ts). One
 * code and one message for "no account" and "limit below the total": a stranger with a number and
 * an email must not learn which (docs/security.md). The server log keeps the detail for the merchant.
 */
export const ELIGIBILITY_ERROR_CODE = "paylater_not_eligible"

export type PaymentKind = "request-to-pay" | "link"

export type EligibilityOutcome =
  | { kind: "eligible" }
  | { kind: "no_account" }
  | { kind: "limit_too_low" }
  /** Not checked or no answer in time: the payment goes on. */
  | { kind: "unknown"; why: string }

export interface EligibilityInput {
  /** What the storefront sent with the session (`mobile_number`, `email`). */
  storefrontData: Record<string, unknown>
  /** A logged-in customer's email, when Medusa passed one. */
  customerEmail?: string | null
  /** Two-decimal QAR text. */
  amount: string
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" && value.length <= 320 ? value.trim() : null
}

function mobileOf(value: unknown): string | null {
  try {
    return normalizeQatarMobile(value)
  } catch {
    return null
  }
}

/** Runs the look-up within `timeoutMs`; any failure or delay is "unknown". Never throws. */
export async function lookUpEligibility(
  api: PayLaterApi,
  input: EligibilityInput,
  options: { timeoutMs: number; logger: Logger | Console }
): Promise<EligibilityOutcome> {
  const mobile = mobileOf(input.storefrontData.mobile_number)
  const email = textOf(input.storefrontData.email) ?? textOf(input.customerEmail)
  if (!mobile || !email) {
    return { kind: "unknown", why: "no mobile number and email to look up" }
  }
  return lookUpShopper(api, { mobile, email, amount: input.amount }, options)
}

/** The text of an email worth looking up (trimmed, at most 320 characters), or null. */
export function emailOf(value: unknown): string | null {
  return textOf(value)
}

/** The look-up itself for a normalised number and an email, within `timeoutMs`. Never throws. */
export async function lookUpShopper(
  api: PayLaterApi,
  { mobile, email, amount }: { mobile: string; email: string; amount: string },
  options: { timeoutMs: number; logger: Logger | Console; /** What the log says happens without an answer. */ consequence?: string }
): Promise<EligibilityOutcome> {
  const consequence = options.consequence ?? "going on without it"
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), options.timeoutMs)
  })
  let answer: Shopper | null | "late"
  try {
    // The call itself keeps its own timeout; a late answer is simply no longer waited for.
    const call = api.lookupShopper({ mobileNumber: mobile, email })
    call.catch(() => undefined)
    answer = await Promise.race([call, late])
  } catch (error) {
    const code = (error as { code?: unknown })?.code
    options.logger.warn(
      `PayLater: shopper look-up for ${maskMobile(mobile)} failed (${typeof code === "string" ? code : "error"}); ${consequence}`
    )
    return { kind: "unknown", why: "look-up failed" }
  } finally {
    clearTimeout(timer)
  }
  if (answer === "late") {
    options.logger.warn(
      `PayLater: shopper look-up for ${maskMobile(mobile)} took longer than ${options.timeoutMs} ms; ${consequence}`
    )
    return { kind: "unknown", why: "look-up too slow" }
  }
  if (answer === null) {
    return { kind: "no_account" }
  }
  // The limit PayLater reports as still available must cover the whole order.
  const room = answer.currentSpendingLimit
  if (!isWithin(amount, "0", room)) {
    return { kind: "limit_too_low" }
  }
  return { kind: "eligible" }
}

/** Whether the merchant's `eligibilityCheck` option asks for a look-up before this kind of payment. */
export function lookUpWanted(mode: EligibilityMode, kind: PaymentKind): boolean {
  return mode === "all" || (mode === "request-to-pay" && kind === "request-to-pay")
}

/** Throws the shopper-facing error for a refusal; returns quietly when the payment may go on. */
export function assertEligible(outcome: EligibilityOutcome, logger: Logger | Console, reference: string): void {
  if (outcome.kind === "no_account" || outcome.kind === "limit_too_low") {
    logger.info(
      `PayLater: ${logRef(reference)} not started: ${outcome.kind === "no_account" ? "no PayLater account for the mobile number and email" : "the shopper's spending limit is below the total"}`
    )
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, SHOPPER_MESSAGES.not_eligible.en, ELIGIBILITY_ERROR_CODE)
  }
}

/**
 * A start through the store API: its route already looked the shopper up with the cart's email
 * (start-guard.ts). A Request to Pay goes only to the number that look-up matched; anything else
 * (no match recorded, another number than the one checked) gets the one "not eligible" answer and
 * nothing is pushed. A link needs nothing more here.
 */
export function assertStoreStartChecked(
  facts: StoreStartFacts,
  storefrontData: Record<string, unknown>,
  kind: PaymentKind,
  logger: Logger | Console,
  reference: string
): void {
  if (kind !== "request-to-pay") return
  const mobile = mobileOf(storefrontData.mobile_number)
  if (!mobile || facts.matched_mobile !== mobile) {
    logger.warn(`PayLater: ${logRef(reference)} not started: the number was not matched with the cart's email by the store route`)
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, SHOPPER_MESSAGES.not_eligible.en, ELIGIBILITY_ERROR_CODE)
  }
}

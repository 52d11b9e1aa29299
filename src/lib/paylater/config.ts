import { z } from "zod"
import { PayLaterError } from "./errors"
import { formatMinorUnits, parseMinorUnits } from "./money"
import type { PayLaterConfig, PayLaterEnvironment } from "./types"

/**
 * Merchant options → PayLaterConfig. Every problem is reported at once, in words a merchant can act
 * on, because this runs at boot where a half-fixed config costs a restart per mistake.
 */

export const PAYLATER_HOSTS: Readonly<Record<PayLaterEnvironment, string>> = {
  sandbox: "https://connect.uat.paylaterapp.com",
  production: "https://connect.paylaterapp.com",
}

/** PayLater's own bounds for an order, in QAR; an outlet may be configured narrower. */
export const PAYLATER_MIN_AMOUNT = "300.00"
export const PAYLATER_MAX_AMOUNT = "25000.00"

/**
 * Request to Pay: PayLater publishes no bounds (the link's 300-25,000 does not apply; a point of sale
 * sells small things too). Defaults: at least 1.00 QAR, and PayLater's largest order as a ceiling
 * that catches a mistyped amount at the till. A merchant may set others (any positive amounts).
 */
export const REQUEST_TO_PAY_MIN_AMOUNT = "1.00"
export const REQUEST_TO_PAY_MAX_AMOUNT = PAYLATER_MAX_AMOUNT

const MAX_EXPIRY_MINUTES = 1440

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "")
}

function requiredText(field: string, hint: string) {
  return z.unknown().optional().transform((value, ctx) => {
    if (typeof value !== "string" || value.trim() === "") {
      ctx.addIssue({ code: "custom", message: `${field} is required (${hint})` })
      return z.NEVER
    }
    return value.trim()
  })
}

/** Whole number from a number or digit-only text (options often come from environment variables). */
function readWholeNumber(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? value : null
  }
  if (typeof value === "string" && /^\s*\d{1,16}\s*$/.test(value)) {
    const n = Number(value.trim())
    return Number.isSafeInteger(n) ? n : null
  }
  return null
}

function wholeNumber(field: string, min: number, max: number, fallback: number, hint: string) {
  return z.unknown().optional().transform((value, ctx) => {
    if (isBlank(value)) {
      return fallback
    }
    const n = readWholeNumber(value)
    if (n === null || n < min || n > max) {
      ctx.addIssue({
        code: "custom",
        message: `${field} must be a whole number between ${min} and ${max} (${hint})`,
      })
      return z.NEVER
    }
    return n
  })
}

const outletId = z.unknown().optional().transform((value, ctx) => {
  const n = readWholeNumber(value)
  if (n === null || n <= 0) {
    ctx.addIssue({
      code: "custom",
      message:
        value === undefined
          ? "outletId is required (the outlet id PayLater issued, e.g. 1000000061)"
          : "outletId must be a whole number (the outlet id PayLater issued, e.g. 1000000061)",
    })
    return z.NEVER
  }
  return n
})

/** An amount option in QAR (two decimals at most), accepted when `fits` its minor units. */
function amountOption(fallback: string, fits: (minor: bigint) => boolean, problem: string) {
  return z.unknown().optional().transform((value, ctx) => {
    if (isBlank(value)) {
      return fallback
    }
    let minor: bigint | null = null
    try {
      minor = parseMinorUnits(value as string | number)
    } catch {
      minor = null
    }
    if (minor === null || !fits(minor)) {
      ctx.addIssue({ code: "custom", message: problem })
      return z.NEVER
    }
    return formatMinorUnits(minor)
  })
}

/** The outlet's own payment-link bound, inside PayLater's 300-25,000 QAR. */
function amountBound(field: string, fallback: string) {
  const floor = parseMinorUnits(PAYLATER_MIN_AMOUNT)
  const ceiling = parseMinorUnits(PAYLATER_MAX_AMOUNT)
  return amountOption(
    fallback,
    (minor) => minor >= floor && minor <= ceiling,
    `${field} must be an amount in QAR between 300.00 and 25000.00 with at most two decimals (the outlet's own limit, e.g. "4000.00")`
  )
}

/** A Request to Pay bound: any positive amount with at most two decimals. */
function requestToPayBound(field: string, fallback: string) {
  return amountOption(
    fallback,
    (minor) => minor > 0n,
    `${field} must be a positive amount in QAR with at most two decimals (e.g. "150.00")`
  )
}

const environment = z.unknown().optional().transform((value, ctx): PayLaterEnvironment => {
  if (isBlank(value)) {
    return "sandbox"
  }
  const text = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (text !== "sandbox" && text !== "production") {
    ctx.addIssue({ code: "custom", message: 'environment must be "sandbox" or "production"' })
    return z.NEVER
  }
  return text
})

const apiBaseUrl = z.unknown().optional().transform((value, ctx): string | undefined => {
  if (isBlank(value)) {
    return undefined
  }
  const message =
    "apiBaseUrl must be an http(s) address without query or fragment (e.g. http://127.0.0.1:4010 for the local sandbox); leave it out to use the environment's PayLater host"
  if (typeof value !== "string") {
    ctx.addIssue({ code: "custom", message })
    return z.NEVER
  }
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    ctx.addIssue({ code: "custom", message })
    return z.NEVER
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    ctx.addIssue({ code: "custom", message })
    return z.NEVER
  }
  return url.href.replace(/\/+$/, "")
})

const optionalText = (field: string) =>
  z.unknown().optional().transform((value, ctx): string | undefined => {
    if (isBlank(value)) {
      return undefined
    }
    if (typeof value === "number" && Number.isSafeInteger(value)) {
      return String(value)
    }
    if (typeof value !== "string") {
      ctx.addIssue({ code: "custom", message: `${field} must be text when set (e.g. "138")` })
      return z.NEVER
    }
    return value.trim()
  })

const schema = z.object({
  clientId: requiredText("clientId", 'the OAuth client id PayLater issued, e.g. "merchant-138"'),
  clientSecret: requiredText("clientSecret", "the OAuth client secret PayLater issued with the client id"),
  outletId,
  webhookSecret: requiredText(
    "webhookSecret",
    "the merchantWebhookSecret your PayLater account manager issues, used to verify webhooks"
  ),
  merchantId: optionalText("merchantId"),
  environment,
  apiBaseUrl,
  timeoutMs: wholeNumber("timeoutMs", 1, 300000, 15000, "milliseconds to wait for each PayLater answer"),
  minAmount: amountBound("minAmount", PAYLATER_MIN_AMOUNT),
  maxAmount: amountBound("maxAmount", PAYLATER_MAX_AMOUNT),
  requestToPayMinAmount: requestToPayBound("requestToPayMinAmount", REQUEST_TO_PAY_MIN_AMOUNT),
  requestToPayMaxAmount: requestToPayBound("requestToPayMaxAmount", REQUEST_TO_PAY_MAX_AMOUNT),
  linkExpiryMinutes: wholeNumber("linkExpiryMinutes", 1, MAX_EXPIRY_MINUTES, 60, "payment link validity in minutes"),
  requestToPayExpiryMinutes: wholeNumber(
    "requestToPayExpiryMinutes",
    1,
    MAX_EXPIRY_MINUTES,
    15,
    "Request to Pay validity in minutes"
  ),
  maxAttempts: wholeNumber("maxAttempts", 1, 5, 3, "attempts for calls that are safe to repeat"),
})

function configurationError(problems: string[]): PayLaterError {
  const message =
    problems.length === 1
      ? `PayLater: ${problems[0]}`
      : `PayLater: ${problems.length} problems in the options: ${problems.join("; ")}`
  return new PayLaterError("CONFIGURATION", message, { details: { problems } })
}

/** Validates merchant options (or an already parsed config) and fills the defaults. */
export function parsePayLaterConfig(input: unknown): PayLaterConfig {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw configurationError([
      "options must be an object with at least clientId, clientSecret, outletId and webhookSecret",
    ])
  }
  const result = schema.safeParse(input)
  if (!result.success) {
    throw configurationError(result.error.issues.map((issue) => issue.message))
  }
  const options = result.data
  const inverted = [
    ["minAmount", "maxAmount"],
    ["requestToPayMinAmount", "requestToPayMaxAmount"],
  ] as const
  const rangeProblems = inverted
    .filter(([min, max]) => parseMinorUnits(options[min]) > parseMinorUnits(options[max]))
    .map(([min, max]) => `${min} (${options[min]}) must not be greater than ${max} (${options[max]})`)
  if (rangeProblems.length) {
    throw configurationError(rangeProblems)
  }
  const config: PayLaterConfig = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    outletId: options.outletId,
    webhookSecret: options.webhookSecret,
    environment: options.environment,
    apiBaseUrl: options.apiBaseUrl ?? PAYLATER_HOSTS[options.environment],
    timeoutMs: options.timeoutMs,
    minAmount: options.minAmount,
    maxAmount: options.maxAmount,
    requestToPayMinAmount: options.requestToPayMinAmount,
    requestToPayMaxAmount: options.requestToPayMaxAmount,
    linkExpiryMinutes: options.linkExpiryMinutes,
    requestToPayExpiryMinutes: options.requestToPayExpiryMinutes,
    maxAttempts: options.maxAttempts,
  }
  if (options.merchantId !== undefined) {
    config.merchantId = options.merchantId
  }
  return config
}

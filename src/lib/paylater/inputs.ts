import { z } from "zod"
import { PayLaterError, isPayLaterError } from "./errors"
import { normalizeQatarMobile } from "./mobile"
import { assertAmountInRange, parseMinorUnits, formatMinorUnits } from "./money"
import type { PayLaterConfig } from "./types"

/**
 * Every operation's input is checked here before anything is sent, so PayLater only ever sees
 * requests it can accept. Format problems are listed together (VALIDATION); the outlet's amount
 * range is checked last so that AMOUNT_OUT_OF_RANGE is only raised for a well-formed amount.
 */

const MAX_REFERENCE_LENGTH = 255
const MAX_URL_LENGTH = 2048
// Control characters would corrupt logs and break PayLater's reference matching.
const CONTROL = /[\u0000-\u001f\u007f]/

function reference(field: string) {
  return z.unknown().optional().transform((value, ctx) => {
    if (
      typeof value !== "string" ||
      value.trim() === "" ||
      value.length > MAX_REFERENCE_LENGTH ||
      CONTROL.test(value)
    ) {
      ctx.addIssue({
        code: "custom",
        message: `${field} must be non-empty text of at most ${MAX_REFERENCE_LENGTH} characters without control characters`,
      })
      return z.NEVER
    }
    return value
  })
}

function guarded<T>(parse: (value: unknown) => T) {
  return z.unknown().optional().transform((value, ctx) => {
    try {
      return parse(value)
    } catch (error) {
      ctx.addIssue({ code: "custom", message: isPayLaterError(error) ? error.message : String(error) })
      return z.NEVER
    }
  })
}

const amount = (field: string) =>
  guarded((value) => {
    if (typeof value !== "string" && typeof value !== "number") {
      throw new PayLaterError("VALIDATION", `PayLater: ${field} must be decimal text such as "350.00"`)
    }
    const minor = parseMinorUnits(value, field)
    if (minor <= 0n) {
      throw new PayLaterError("VALIDATION", `PayLater: ${field} must be greater than zero`)
    }
    return formatMinorUnits(minor)
  })

const currency = z.unknown().optional().transform((value, ctx) => {
  if (typeof value !== "string" || value.trim().toUpperCase() !== "QAR") {
    ctx.addIssue({ code: "custom", message: "currency must be QAR: PayLater only takes Qatari riyals" })
    return z.NEVER
  }
  return "QAR" as const
})

function redirectUrl(field: string) {
  return z.unknown().optional().transform((value, ctx) => {
    let ok = false
    if (typeof value === "string" && value.length <= MAX_URL_LENGTH) {
      try {
        const url = new URL(value)
        ok = url.protocol === "https:" || url.protocol === "http:"
      } catch {
        ok = false
      }
    }
    if (!ok) {
      ctx.addIssue({ code: "custom", message: `${field} must be an absolute http(s) URL` })
      return z.NEVER
    }
    return value as string
  })
}

function expiry(field: string, fallback: number) {
  return z.unknown().optional().transform((value, ctx) => {
    if (value === undefined || value === null) {
      return fallback
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1440) {
      ctx.addIssue({ code: "custom", message: `${field} must be a whole number of minutes from 1 to 1440` })
      return z.NEVER
    }
    return value
  })
}

const mobile = guarded((value) => normalizeQatarMobile(value))

const email = z.unknown().optional().transform((value, ctx) => {
  const ok = typeof value === "string" && value.length <= 254 && z.email().safeParse(value.trim()).success
  if (!ok) {
    ctx.addIssue({ code: "custom", message: "email must be an email address" })
    return z.NEVER
  }
  return (value as string).trim()
})

function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new PayLaterError("VALIDATION", `PayLater: ${what} needs an object`)
  }
  const result = schema.safeParse(input)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => issue.message.replace(/^PayLater: /, ""))
    throw new PayLaterError("VALIDATION", `PayLater: ${what}: ${problems.join("; ")}`, {
      details: { problems },
    })
  }
  return result.data
}

export function validatePaymentLinkInput(input: unknown, config: PayLaterConfig) {
  const schema = z.object({
    orderId: reference("orderId"),
    amount: amount("amount"),
    currency,
    successRedirectUrl: redirectUrl("successRedirectUrl"),
    failRedirectUrl: redirectUrl("failRedirectUrl"),
    expiryMinutes: expiry("expiryMinutes", config.linkExpiryMinutes),
  })
  const valid = validate(schema, input, "cannot create a payment link")
  return { ...valid, amount: assertAmountInRange(valid.amount, config) }
}

/** Request to Pay's own bounds, in the shape the range check takes. */
export function requestToPayRange(config: PayLaterConfig): { minAmount: string; maxAmount: string } {
  return { minAmount: config.requestToPayMinAmount, maxAmount: config.requestToPayMaxAmount }
}

export function validateRequestToPayInput(input: unknown, config: PayLaterConfig) {
  const schema = z.object({
    mobileNumber: mobile,
    amount: amount("amount"),
    merchantOrderReference: reference("merchantOrderReference"),
    expiryMinutes: expiry("expiryMinutes", config.requestToPayExpiryMinutes),
  })
  const valid = validate(schema, input, "cannot send a Request to Pay")
  return { ...valid, amount: assertAmountInRange(valid.amount, requestToPayRange(config)) }
}

export function validateOrderId(orderId: unknown): string {
  return validate(z.object({ orderId: reference("orderId") }), { orderId }, "cannot check the status").orderId
}

export function validateRefundInput(input: unknown) {
  const schema = z.object({
    orderId: reference("orderId"),
    amount: z.union([z.undefined(), amount("amount")]),
  })
  return validate(schema, input, "cannot refund")
}

export function validateShopperLookupInput(input: unknown) {
  return validate(z.object({ mobileNumber: mobile, email }), input, "cannot look up the shopper")
}

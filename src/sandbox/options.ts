import { z } from "zod"
import { formatAmount, parseAmount } from "./money"
import { normaliseQatarMobile } from "./mobile"
import type { ResolvedSandboxOptions, ResolvedShopper, SandboxOptions } from "./types"

export const DEFAULTS = {
  host: "127.0.0.1",
  clientId: "sandbox-client",
  clientSecret: "sandbox-secret",
  merchantId: "sandbox-merchant",
  webhookSecret: "sandbox-webhook-secret",
  outletId: 1000000061,
  minAmount: "300",
  maxAmount: "25000",
  tokenLifetimeSeconds: 300,
  webhookRetry: { attempts: 5, baseDelayMs: 500, timeoutMs: 5000 },
  maxRecords: 10000,
  sweepIntervalMs: 1000,
} as const

/** PayLater's published test shoppers 51118021–51118025; the last one has little spending room left. */
export const DEFAULT_SHOPPERS = [1, 2, 3, 4, 5].map((n) => ({
  mobileNumber: `9745111802${n}`,
  email: `shopper${n}@sandbox.paylater.test`,
  allowedSpendingLimit: "10000.00",
  currentSpendingLimit: n === 5 ? "250.00" : "10000.00",
}))

const amountText = z.string().refine((v) => parseAmount(v).ok, "must be a decimal amount")

const optionsSchema = z.object({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  merchantId: z.string().min(1).optional(),
  webhookSecret: z.string().min(1).optional(),
  webhookUrl: z.url({ protocol: /^https?$/ }).nullable().optional(),
  outlets: z
    .array(
      z.object({
        id: z.number().int().positive(),
        minAmount: amountText.optional(),
        maxAmount: amountText.optional(),
      })
    )
    .min(1)
    .optional(),
  shoppers: z
    .array(
      z.object({
        mobileNumber: z.string().refine((v) => normaliseQatarMobile(v) !== null, "must be a Qatari mobile"),
        email: z.string().min(1),
        allowedSpendingLimit: amountText.optional(),
        currentSpendingLimit: amountText.optional(),
      })
    )
    .optional(),
  tokenLifetimeSeconds: z.number().int().positive().optional(),
  stateFile: z.string().min(1).optional(),
  webhookRetry: z
    .object({
      attempts: z.number().int().min(1).max(100).optional(),
      baseDelayMs: z.number().int().min(0).optional(),
      timeoutMs: z.number().int().positive().optional(),
    })
    .optional(),
  maxRecords: z.number().int().positive().optional(),
  sweepIntervalMs: z.number().int().positive().optional(),
  log: z.function().optional(),
})

function dirhams(text: string): number {
  const parsed = parseAmount(text)
  if (!parsed.ok) throw new Error(`Invalid amount ${text}`)
  return parsed.dirhams
}

function twoDecimals(text: string): string {
  return formatAmount(dirhams(text))
}

/** Validates options up front so a typo fails at start, not on the first request. */
export function resolveOptions(input: SandboxOptions = {}): Omit<ResolvedSandboxOptions, "publicUrl"> & {
  publicUrl: string | null
} {
  const parsed = optionsSchema.safeParse(input)
  if (!parsed.success) {
    throw new Error(`Invalid PayLater sandbox options:\n${z.prettifyError(parsed.error)}`)
  }
  const o = parsed.data

  const outlets = (o.outlets ?? [{ id: DEFAULTS.outletId }]).map((outlet) => {
    const minDirhams = dirhams(outlet.minAmount ?? DEFAULTS.minAmount)
    const maxDirhams = dirhams(outlet.maxAmount ?? DEFAULTS.maxAmount)
    if (minDirhams > maxDirhams) {
      throw new Error(`Invalid PayLater sandbox options: outlet ${outlet.id} has minAmount above maxAmount`)
    }
    return { id: outlet.id, minAmount: formatAmount(minDirhams), maxAmount: formatAmount(maxDirhams), minDirhams, maxDirhams }
  })
  if (new Set(outlets.map((x) => x.id)).size !== outlets.length) {
    throw new Error("Invalid PayLater sandbox options: outlet ids must be unique")
  }

  const shoppers: ResolvedShopper[] = (o.shoppers ?? DEFAULT_SHOPPERS).map((s, index) => ({
    // Stable across restarts so screenshots and fixtures do not churn.
    shopperId: String(70001 + index),
    mobileNumber: normaliseQatarMobile(s.mobileNumber) as string,
    email: s.email,
    allowedSpendingLimit: twoDecimals(s.allowedSpendingLimit ?? "10000"),
    currentSpendingLimit: twoDecimals(s.currentSpendingLimit ?? s.allowedSpendingLimit ?? "10000"),
  }))

  return {
    port: o.port ?? 0,
    host: o.host ?? DEFAULTS.host,
    publicUrl: o.publicUrl ? o.publicUrl.replace(/\/+$/, "") : null,
    clientId: o.clientId ?? DEFAULTS.clientId,
    clientSecret: o.clientSecret ?? DEFAULTS.clientSecret,
    merchantId: o.merchantId ?? DEFAULTS.merchantId,
    webhookSecret: o.webhookSecret ?? DEFAULTS.webhookSecret,
    webhookUrl: o.webhookUrl ?? null,
    outlets,
    shoppers,
    tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? DEFAULTS.tokenLifetimeSeconds,
    webhookRetry: {
      attempts: o.webhookRetry?.attempts ?? DEFAULTS.webhookRetry.attempts,
      baseDelayMs: o.webhookRetry?.baseDelayMs ?? DEFAULTS.webhookRetry.baseDelayMs,
      timeoutMs: o.webhookRetry?.timeoutMs ?? DEFAULTS.webhookRetry.timeoutMs,
    },
    maxRecords: o.maxRecords ?? DEFAULTS.maxRecords,
    sweepIntervalMs: o.sweepIntervalMs ?? DEFAULTS.sweepIntervalMs,
    stateFile: o.stateFile ?? null,
    // The function is taken from the input, not from zod, so its `this`/identity is untouched.
    log: input.log ?? (() => undefined),
  }
}

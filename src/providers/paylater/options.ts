import { z } from "zod"
import { isPayLaterError, parsePayLaterConfig } from "../../lib/paylater"
import type { PayLaterConfig, PayLaterConfigInput } from "../../lib/paylater"
import { readCheckoutOptions, type CheckoutOptionsInput, type CheckoutSettings } from "./checkout-options"
import { readLimitOptions, type LimitOptionsInput, type LimitSettings } from "./limit-options"
import { readReconcileOptions, type ReconcileOptionsInput, type ReconcileSettings } from "./reconcile-options"
import { readWebhookOptions, type WebhookOptionsInput, type WebhookSettings } from "./webhook-options"
import { readNotifyOptions, type NotifyOptionsInput, type NotifySettings } from "./notify-options"
import { configurationWarnings, isProductionProcess, productionProblems } from "./production-guard"
import { DEFAULT_TEMPLATES, fillTemplate, unknownPlaceholders } from "./templates"
import { CRASH_POINTS_ENV, crashPointProblems, parseCrashPoints } from "../../faults/crash-point"

/** What a merchant puts under the provider's `options` in medusa-config. */
export interface PayLaterProviderOptions
  extends PayLaterConfigInput,
    ReconcileOptionsInput,
    CheckoutOptionsInput,
    LimitOptionsInput,
    WebhookOptionsInput,
    NotifyOptionsInput {
  /** Public URL of this Medusa server; PayLater sends the shopper back to its return route. */
  backendUrl: string
  /** Storefront base, available to templates as {storefront_url}. */
  storefrontUrl: string
  successUrlTemplate?: string
  failureUrlTemplate?: string
  pendingUrlTemplate?: string
  /** A payment PayLater took whose cart could not become an order: refund it automatically (default) or hold it for a person. */
  paidWithoutOrder?: PaidWithoutOrderPolicy
  /**
   * With NODE_ENV=production and environment "production", a plain-http or loopback `apiBaseUrl` is
   * refused at boot unless this is true (e.g. an egress proxy on localhost that does the TLS).
   */
  allowInsecureApiBase?: boolean
}

export const PAID_WITHOUT_ORDER_POLICIES = ["refund", "hold"] as const
export type PaidWithoutOrderPolicy = (typeof PAID_WITHOUT_ORDER_POLICIES)[number]

export interface StorefrontTemplates {
  success: string
  failure: string
  pending: string
}

export interface ResolvedProviderOptions {
  config: PayLaterConfig
  backendUrl: string
  storefrontUrl: string
  templates: StorefrontTemplates
  /** The reconciliation job's look-back and batching (reconcile-options.ts). */
  reconcile: ReconcileSettings
  /** Instalment plans shown to shoppers and the shopper look-up before a payment (checkout-options.ts). */
  checkout: CheckoutSettings
  /** How often a storefront may push, look up or create links per mobile number and per cart (limit-options.ts). */
  limits: LimitSettings
  /** How verified webhooks are settled: how many at a time, after what delay (webhook-options.ts). */
  webhooks: WebhookSettings
  /** What happens to a payment PayLater took for a cart that could not become an order. */
  paidWithoutOrder: PaidWithoutOrderPolicy
  /** Who is told when something needs a person (notify-options.ts, src/notifications). */
  notify: NotifySettings
  /** Things that may run but deserve a look (production-guard.ts): logged once at boot, shown on Settings → PayLater. */
  warnings: string[]
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
  } catch {
    return false
  }
}

const baseUrl = (field: string, example: string) =>
  z.unknown().optional().transform((value, ctx) => {
    if (typeof value !== "string" || !isHttpUrl(value.trim())) {
      ctx.addIssue({
        code: "custom",
        message: `${field} must be an absolute http(s) URL (e.g. ${example})`,
      })
      return z.NEVER
    }
    return value.trim().replace(/\/+$/, "")
  })

// `.optional()` first: zod 4 reports an absent key as "expected nonoptional" otherwise.
const template = (field: string, fallback: string) =>
  z.unknown().optional().transform((value, ctx) => {
    if (value === undefined || value === null || value === "") {
      return fallback
    }
    if (typeof value !== "string") {
      ctx.addIssue({ code: "custom", message: `${field} must be text` })
      return z.NEVER
    }
    const unknown = unknownPlaceholders(value)
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        message: `${field} uses unknown placeholder(s) ${unknown.map((n) => `{${n}}`).join(", ")}; allowed: {storefront_url}, {order_id}, {cart_id}, {reason}, {session_id}`,
      })
      return z.NEVER
    }
    // The filled result must be an absolute URL, or the shopper would be sent somewhere relative to PayLater.
    const sample = fillTemplate(value, {
      storefront_url: "https://storefront.example",
      order_id: "order_1",
      cart_id: "cart_1",
      reason: "declined",
      session_id: "payses_1",
    })
    if (!isHttpUrl(sample)) {
      ctx.addIssue({
        code: "custom",
        message: `${field} must produce an absolute http(s) URL, e.g. "{storefront_url}/order/confirmed/{order_id}"`,
      })
      return z.NEVER
    }
    return value
  })

const providerSchema = z.object({
  backendUrl: baseUrl("backendUrl", "https://api.example-store.qa, the public URL of this Medusa server"),
  storefrontUrl: baseUrl("storefrontUrl", "https://www.example-store.qa"),
  successUrlTemplate: template("successUrlTemplate", DEFAULT_TEMPLATES.success),
  failureUrlTemplate: template("failureUrlTemplate", DEFAULT_TEMPLATES.failure),
  pendingUrlTemplate: template("pendingUrlTemplate", DEFAULT_TEMPLATES.pending),
  paidWithoutOrder: z
    .enum(PAID_WITHOUT_ORDER_POLICIES, { message: 'paidWithoutOrder must be "refund" or "hold"' })
    .optional()
    .default("refund"),
  allowInsecureApiBase: z
    .boolean({ message: "allowInsecureApiBase must be true or false" })
    .optional()
    .default(false),
})

/**
 * Validates everything at once and reports every problem in one message, so a merchant fixes the
 * configuration in one restart. Throws a plain Error: this runs at boot, before any request.
 */
export function resolveProviderOptions(
  options: unknown,
  { production = isProductionProcess() }: { production?: boolean } = {}
): ResolvedProviderOptions {
  const problems: string[] = []
  let config: PayLaterConfig | undefined
  try {
    config = parsePayLaterConfig(options)
  } catch (error) {
    if (isPayLaterError(error, "CONFIGURATION") && Array.isArray(error.details.problems)) {
      problems.push(...(error.details.problems as string[]))
    } else {
      problems.push(error instanceof Error ? error.message : String(error))
    }
  }
  const parsed = providerSchema.safeParse(typeof options === "object" && options !== null ? options : {})
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((issue) => issue.message))
  }
  const reconcile = readReconcileOptions(
    typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {},
    config ? Math.max(config.linkExpiryMinutes, config.requestToPayExpiryMinutes) : 0,
    problems
  )
  const checkout = readCheckoutOptions(
    typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {},
    problems
  )
  const limits = readLimitOptions(
    typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {},
    problems
  )
  const webhooks = readWebhookOptions(
    typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {},
    problems
  )
  const notify = readNotifyOptions(
    typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {},
    problems
  )
  if (production && config && parsed.success) {
    problems.push(
      ...productionProblems({
        raw: options as Record<string, unknown>,
        config,
        allowInsecureApiBase: parsed.data.allowInsecureApiBase,
      })
    )
  }
  // Test-only crash points (faults/crash-point.ts): armed only against the local sandbox, never in production.
  // Without a parsed configuration the boot is refused anyway; only the variable's own typos are added.
  problems.push(...(config ? crashPointProblems(config) : parseCrashPoints(process.env[CRASH_POINTS_ENV]).problems))
  if (problems.length || !config || !parsed.success) {
    throw new Error(`PayLater provider options are invalid: ${problems.join("; ")}`)
  }
  return {
    config,
    backendUrl: parsed.data.backendUrl,
    storefrontUrl: parsed.data.storefrontUrl,
    templates: {
      success: parsed.data.successUrlTemplate,
      failure: parsed.data.failureUrlTemplate,
      pending: parsed.data.pendingUrlTemplate,
    },
    reconcile,
    checkout,
    limits,
    webhooks,
    paidWithoutOrder: parsed.data.paidWithoutOrder,
    notify,
    warnings: configurationWarnings(config, production),
  }
}

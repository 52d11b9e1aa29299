#!/usr/bin/env node
import { parseArgs } from "node:util"
import { API_BASE_PATH, startSandbox, TOKEN_PATH, type PayLaterSandbox, type SandboxOptions } from "./index"
import { DEFAULTS } from "./options"
import { formatBound } from "./money"

export const DEFAULT_CLI_PORT = 4010

export const HELP = `paylater-sandbox: a local stand-in for the PayLater merchant API (QAR, buy now pay later)

Usage: paylater-sandbox [options]

Options (each also readable from the environment variable shown):
  --port <n>               Port to listen on; 0 = random           PAYLATER_SANDBOX_PORT (default ${DEFAULT_CLI_PORT})
  --host <addr>            Address to bind                         PAYLATER_SANDBOX_HOST (default ${DEFAULTS.host})
  --public-url <url>       Base URL put into payment links         PAYLATER_SANDBOX_PUBLIC_URL (default http://host:port)
  --webhook-url <url>      Merchant webhook target                 PAYLATER_SANDBOX_WEBHOOK_URL (default none: deliveries skipped)
  --client-id <id>         OAuth client id                         PAYLATER_SANDBOX_CLIENT_ID (default ${DEFAULTS.clientId})
  --client-secret <s>      OAuth client secret                     PAYLATER_SANDBOX_CLIENT_SECRET (default ${DEFAULTS.clientSecret})
  --merchant-id <id>       merchantId in webhooks                  PAYLATER_SANDBOX_MERCHANT_ID (default ${DEFAULTS.merchantId})
  --webhook-secret <s>     Key that signs webhooks                 PAYLATER_SANDBOX_WEBHOOK_SECRET (default ${DEFAULTS.webhookSecret})
  --outlet <id[:min-max]>  An outlet and its QAR range; repeatable PAYLATER_SANDBOX_OUTLETS (comma-separated)
                           (default ${DEFAULTS.outletId}:${DEFAULTS.minAmount}-${DEFAULTS.maxAmount})
  --state-file <path>      Keep orders across restarts in this file PAYLATER_SANDBOX_STATE_FILE (default none)
  --quiet                  Do not log requests and webhooks        PAYLATER_SANDBOX_QUIET=1
  -h, --help               Show this help

Point the plugin at it with apiBaseUrl = the printed API base and the printed credentials.
Act as the shopper on the hosted page (/paylink/...) or in the shopper app (/app?mobile=974...).
Control API (JSON) for tests and scripts:
  POST /__sandbox/reset | /__sandbox/clock {now|advanceMs} | /__sandbox/faults | /__sandbox/webhook-faults
  POST /__sandbox/webhook-url {url} | /__sandbox/webhooks/send | /__sandbox/links/<orderId>/approve|decline|abandon
  POST /__sandbox/rtp/<reference>/approve|decline   GET /__sandbox/orders | /__sandbox/requests | /__sandbox/deliveries
Stop with Ctrl+C.`

export class CliError extends Error {}

/** "1000000061" or "1000000061:300-4000" */
export function parseOutlet(text: string): NonNullable<SandboxOptions["outlets"]>[number] {
  const m = /^(\d{1,15})(?::(\d+(?:\.\d{1,2})?)-(\d+(?:\.\d{1,2})?))?$/.exec(text.trim())
  if (!m) throw new CliError(`--outlet must look like 1000000061 or 1000000061:300-4000, got "${text}"`)
  return m[2] ? { id: Number(m[1]), minAmount: m[2], maxAmount: m[3] } : { id: Number(m[1]) }
}

export type CliParse = { help: true } | { help: false; options: SandboxOptions; quiet: boolean }

/** Flags win over environment variables, which win over the defaults. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = {}): CliParse {
  let values: Record<string, string | string[] | boolean | undefined>
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "public-url": { type: "string" },
        "webhook-url": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "merchant-id": { type: "string" },
        "webhook-secret": { type: "string" },
        outlet: { type: "string", multiple: true },
        "state-file": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values
  } catch (e) {
    throw new CliError((e as Error).message)
  }
  if (values.help) return { help: true }

  const pick = (flag: string, envName: string): string | undefined => {
    const v = values[flag]
    if (typeof v === "string") return v
    const e = env[envName]
    return e === undefined || e === "" ? undefined : e
  }

  const portText = pick("port", "PAYLATER_SANDBOX_PORT")
  const port = portText === undefined ? DEFAULT_CLI_PORT : Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0-65535, got "${portText}"`)

  const outletTexts = (values.outlet as string[] | undefined) ??
    (env.PAYLATER_SANDBOX_OUTLETS ?? env.PAYLATER_SANDBOX_OUTLET)?.split(",").filter((s) => s.trim() !== "")
  const options: SandboxOptions = {
    port,
    host: pick("host", "PAYLATER_SANDBOX_HOST"),
    publicUrl: pick("public-url", "PAYLATER_SANDBOX_PUBLIC_URL"),
    webhookUrl: pick("webhook-url", "PAYLATER_SANDBOX_WEBHOOK_URL"),
    clientId: pick("client-id", "PAYLATER_SANDBOX_CLIENT_ID"),
    clientSecret: pick("client-secret", "PAYLATER_SANDBOX_CLIENT_SECRET"),
    merchantId: pick("merchant-id", "PAYLATER_SANDBOX_MERCHANT_ID"),
    webhookSecret: pick("webhook-secret", "PAYLATER_SANDBOX_WEBHOOK_SECRET"),
    outlets: outletTexts?.length ? outletTexts.map(parseOutlet) : undefined,
    stateFile: pick("state-file", "PAYLATER_SANDBOX_STATE_FILE"),
  }
  for (const key of Object.keys(options) as Array<keyof SandboxOptions>) {
    if (options[key] === undefined) delete options[key]
  }
  const quiet = values.quiet === true || ["1", "true", "yes"].includes(String(env.PAYLATER_SANDBOX_QUIET ?? "").toLowerCase())
  return { help: false, options, quiet }
}

/** Shows a secret only when it is the public built-in default; anything real is masked. */
export function maskSecret(value: string, builtIn: string): string {
  if (value === builtIn) return `${value} (built-in sandbox default)`
  if (value.length <= 4) return "*".repeat(value.length)
  return `${value.slice(0, 2)}${"*".repeat(Math.min(value.length - 4, 12))}${value.slice(-2)} (${value.length} characters, masked)`
}

export function banner(sandbox: PayLaterSandbox): string {
  const o = sandbox.options
  const base = sandbox.url
  const outlets = o.outlets.map((x) => `${x.id} (QAR ${formatBound(x.minDirhams)}-${formatBound(x.maxDirhams)})`).join(", ")
  const shoppers = o.shoppers.map((s) => s.mobileNumber)
  const lines = [
    `PayLater sandbox listening on ${base}`,
    ``,
    `  apiBaseUrl (plugin option)  ${base}`,
    `  Token endpoint              POST ${base}${TOKEN_PATH}`,
    `  Operations                  ${base}${API_BASE_PATH}[/request-to-pay|/status|/refund|/shopper]`,
    `  Payment links built on      ${o.publicUrl}/paylink/...`,
    `  Client id                   ${o.clientId}`,
    `  Client secret               ${maskSecret(o.clientSecret, DEFAULTS.clientSecret)}`,
    `  Merchant id                 ${o.merchantId}`,
    `  Webhook secret              ${maskSecret(o.webhookSecret, DEFAULTS.webhookSecret)}`,
    `  Webhook target              ${o.webhookUrl ?? "none (notifications are recorded as skipped)"}`,
    `  Outlets                     ${outlets}`,
    `  Test shoppers               ${shoppers.length ? `${shoppers[0]}${shoppers.length > 1 ? ` ... ${shoppers[shoppers.length - 1]}` : ""}` : "none"}`,
    `  Shopper app                 ${o.publicUrl}/app${shoppers[0] ? `?mobile=${shoppers[0]}` : ""}`,
    `  Control API                 ${base}/__sandbox/ (reset, clock, faults, orders, deliveries...)`,
    `  State file                  ${o.stateFile ?? "none (orders are forgotten on stop; --state-file keeps them)"}`,
    ``,
    ...envBlock(sandbox).split("\n"),
    ``,
    `Press Ctrl+C to stop.`,
  ]
  return lines.join("\n")
}

/**
 * The store's `.env` lines for this sandbox (README section 8), ready to paste. Secrets that are not
 * the public built-in defaults are masked: a terminal scrollback is no place for a real secret.
 */
export function envBlock(sandbox: PayLaterSandbox): string {
  const o = sandbox.options
  const secret = (value: string, builtIn: string) => (value === builtIn ? value : "<the secret you passed>")
  return [
    `Your store's .env for this sandbox (README section 8):`,
    `  PAYLATER_CLIENT_ID=${o.clientId}`,
    `  PAYLATER_CLIENT_SECRET=${secret(o.clientSecret, DEFAULTS.clientSecret)}`,
    `  PAYLATER_OUTLET_ID=${o.outlets[0].id}`,
    `  PAYLATER_WEBHOOK_SECRET=${secret(o.webhookSecret, DEFAULTS.webhookSecret)}`,
    `  PAYLATER_MERCHANT_ID=${o.merchantId}`,
    `  PAYLATER_ENVIRONMENT=sandbox`,
    `  PAYLATER_API_BASE_URL=${sandbox.url}`,
    // The plugin builds its return and webhook URLs from these: the store's own address (the
    // webhook target's, when given) and the storefront's (Medusa's starter default).
    `  MEDUSA_BACKEND_URL=${backendOf(o.webhookUrl)}`,
    `  STOREFRONT_URL=http://localhost:8000`,
  ].join("\n")
}

function backendOf(webhookUrl: string | null | undefined): string {
  try {
    return webhookUrl ? new URL(webhookUrl).origin : "http://localhost:9000"
  } catch {
    return "http://localhost:9000"
  }
}

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
}

/** Returns the started sandbox (or null after --help / a usage error, with process.exitCode set). */
export async function main(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }
): Promise<PayLaterSandbox | null> {
  let parsed: CliParse
  try {
    parsed = parseCli(argv, env)
  } catch (e) {
    io.err(`paylater-sandbox: ${(e as Error).message}\nRun with --help for usage.`)
    process.exitCode = 2
    return null
  }
  if (parsed.help) {
    io.out(HELP)
    return null
  }
  let sandbox: PayLaterSandbox
  try {
    sandbox = await startSandbox({
      ...parsed.options,
      log: parsed.quiet ? undefined : (line) => io.out(`[${new Date().toISOString()}] ${line}`),
    })
  } catch (e) {
    io.err(`paylater-sandbox: ${(e as Error).message}`)
    process.exitCode = 1
    return null
  }
  io.out(banner(sandbox))
  return sandbox
}

function installSignalHandlers(sandbox: PayLaterSandbox): void {
  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal} received, stopping the PayLater sandbox...`)
    // A stuck close must not keep a terminal hostage.
    setTimeout(() => process.exit(1), 5000).unref()
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.once("SIGINT", shutdown)
  process.once("SIGTERM", shutdown)
}

if (require.main === module) {
  void main().then((sandbox) => {
    if (sandbox) installSignalHandlers(sandbox)
  })
}

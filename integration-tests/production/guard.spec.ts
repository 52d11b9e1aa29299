/**
 * The production guard where it acts: `medusa start` of the dev store (medusa-config.ts, the plugin
 * from src/) with NODE_ENV=production, as a real process. Each bad configuration must stop the boot
 * with its message; a good one must boot and answer /health, saying once that merchantId is unset.
 *
 * Cheapest real boot, measured: a refused configuration fails while Medusa loads its modules, before
 * any table is read, so those boots run against an empty database (about 8-12 s each here); only
 * the good one needs a migrated database: a copy of the test run's migrated template
 * (scripts/lib/template-db.js), or `medusa db:migrate` of the dev store (about 20-60 s on this
 * machine) when jest runs without one.
 * The as-installed test (integration-tests/installed) boots the packed plugin in production too.
 *
 * Each rule of the guard (every refused address range, every refused secret, how Medusa reads
 * NODE_ENV) is proven by its unit test, src/providers/paylater/__tests__/production-guard.suite.ts;
 * a real boot costs ~10 s, so the boots here prove the wiring, one per way a value reaches the
 * guard: the environment option, the API base, the secrets under NODE_ENV=prod.
 */
import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"
import { Client } from "pg"
import { copyTemplate } from "../helpers/runner"

jest.setTimeout(600_000)

const root = path.resolve(__dirname, "..", "..")
const CLI = path.join(root, "node_modules", "@medusajs", "cli", "cli.js")
const { freePort } = require("../../scripts/lib/database") as { freePort(): Promise<number> }

const server = {
  host: process.env.DB_HOST ?? "localhost",
  port: process.env.DB_PORT ?? "5432",
  user: process.env.DB_USERNAME ?? "postgres",
  password: process.env.DB_PASSWORD ?? "",
}
const DATABASE = `paylater_guard_${process.pid}`
const urlFor = (name: string) =>
  `postgres://${encodeURIComponent(server.user)}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${name}`

async function sql(statement: string): Promise<void> {
  const client = new Client({ connectionString: urlFor("postgres") })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A live-looking configuration: every bad case breaks one thing of it. */
const LIVE = {
  PAYLATER_ENVIRONMENT: "production",
  PAYLATER_API_BASE_URL: "",
  PAYLATER_CLIENT_ID: "merchant-live",
  PAYLATER_CLIENT_SECRET: "issued-by-paylater-for-this-test",
  PAYLATER_WEBHOOK_SECRET: "webhook-secret-issued-for-this-test",
  PAYLATER_MERCHANT_ID: "",
  PAYLATER_ALLOW_INSECURE_API_BASE: "",
}

function medusaEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: urlFor(DATABASE),
    MEDUSA_DISABLE_TELEMETRY: "true",
    MEDUSA_ADMIN_DISABLED: "true",
    PAYLATER_RECONCILE_SCHEDULE: "off",
    ...extra,
  }
  // The test runner's own settings are not the server's.
  for (const name of ["NODE_OPTIONS", "JEST_WORKER_ID", "REDIS_URL", "TEST_TYPE", "DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]) delete env[name]
  return env
}

interface Run {
  child: ChildProcess
  output(): string
  exited: Promise<number | null>
}

function medusa(args: string[], extra: Record<string, string>): Run {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: root, env: medusaEnv(extra), stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  child.stdout!.on("data", (d) => (out += d))
  child.stderr!.on("data", (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, output: () => out, exited }
}

/** Boots with `extra` and returns the exit code and output; a boot that does not end is a failure. */
async function refusedBoot(extra: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const run = medusa(["start", "--port", String(await freePort())], extra)
  const limit = setTimeout(() => run.child.kill("SIGKILL"), 180_000)
  const code = await run.exited
  clearTimeout(limit)
  return { code, output: run.output() }
}

/** Production logs are JSON lines: the guard's message, unescaped. */
function guardMessage(output: string): string {
  const line = output.split("\n").find((l) => l.includes("PayLater provider options are invalid"))
  if (!line) return ""
  try {
    const parsed = JSON.parse(line) as { message?: string }
    return parsed.message ?? line
  } catch {
    return line
  }
}

beforeAll(async () => {
  await sql(`create database "${DATABASE}"`)
})

/** The good boots' database, migrated: the run's template copied into it, else the dev store's migrations. */
async function migrated(): Promise<void> {
  const template = process.env.PAYLATER_TEST_TEMPLATE_DB
  if (template) {
    await sql(`drop database "${DATABASE}"`)
    await copyTemplate(template, DATABASE)
    return
  }
  const migrate = medusa(["db:migrate"], { ...LIVE, PAYLATER_ENVIRONMENT: "sandbox" })
  expect(await migrate.exited).toBe(0)
}

afterAll(async () => {
  await sql(`drop database if exists "${DATABASE}" with (force)`).catch(() => undefined)
})

describe("NODE_ENV=production boot of the dev store", () => {
  it.each([
    ["an unset environment", { PAYLATER_ENVIRONMENT: "" }, [/environment must be set explicitly when NODE_ENV=production/]],
    // One boot for the guard's other refusals: it names every problem in one message
    // (production-guard.suite.ts), so a private address and the sandbox's secrets under NODE_ENV=prod
    // (production to Medusa) are refused together, each by name.
    [
      "a private 10.x address and, under NODE_ENV=prod, the sandbox's secrets",
      { NODE_ENV: "prod", PAYLATER_API_BASE_URL: "https://10.0.0.5", PAYLATER_CLIENT_SECRET: "sandbox-secret", PAYLATER_WEBHOOK_SECRET: "sandbox-webhook-secret" },
      [/is in the private address range/, /clientSecret is the local PayLater sandbox's built-in value/, /webhookSecret is the local PayLater sandbox's built-in value/],
    ],
  ])("refuses %s with the guard's message", async (_what, change, messages) => {
    const { code, output } = await refusedBoot({ ...LIVE, ...change })
    expect(code).not.toBe(0)
    const message = guardMessage(output)
    for (const expected of messages) expect(message).toMatch(expected)
    expect(output).not.toMatch(/Server is ready/)
  })

  /** Boots with `extra` until /health answers 200; returns the output so far. */
  async function goodBoot(extra: Record<string, string>): Promise<string> {
    const port = await freePort()
    const run = medusa(["start", "--port", String(port)], extra)
    try {
      let status = 0
      while (status !== 200) {
        const code = await Promise.race([run.exited, new Promise<"running">((r) => setTimeout(() => r("running"), 1000))])
        if (code !== "running") throw new Error(`medusa start exited (${code}):\n${run.output().slice(-4000)}`)
        status = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.status,
          () => 0
        )
      }
      return run.output()
    } finally {
      run.child.kill("SIGTERM")
      await run.exited
    }
  }

  it("boots good configurations: a real https host under NODE_ENV=prod, and an intended local API base; warns once that merchantId is unset", async () => {
    await migrated()

    // Names are not resolved at boot: a real https host boots (nothing is sent to it here).
    const real = await goodBoot({ ...LIVE, NODE_ENV: "prod", PAYLATER_API_BASE_URL: "https://connect.paylaterapp.com" })
    expect(guardMessage(real)).toBe("")
    expect(real.match(/PayLater: merchantId is not set/g)).toHaveLength(1)

    const local = await goodBoot({ ...LIVE, PAYLATER_API_BASE_URL: "http://127.0.0.1:4010", PAYLATER_ALLOW_INSECURE_API_BASE: "true" })
    expect(guardMessage(local)).toBe("")
    expect(local.match(/PayLater: merchantId is not set/g)).toHaveLength(1)
  })
})

/**
 * Real Medusa processes for the multi-instance test: one dedicated PostgreSQL database, migrated and
 * seeded once with the Medusa CLI, then pairs of `medusa start` servers on free ports sharing it.
 *
 * Built from the demo's pieces (scripts/lib): `ensureDatabase` finds or starts PostgreSQL, the
 * demo's `ProcessSupervisor` runs every child in its own process group (so stopping it stops
 * everything it forked), `medusaEnv` is the environment medusa-config.ts reads, `waitForHttp`
 * waits for an answer rather than for some seconds.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import type { SeedResult } from "../helpers/seed"

const root = path.resolve(__dirname, "..", "..")

interface DatabaseHandle {
  env: Record<string, string>
  embedded: boolean
  stop(): Promise<void>
}
interface SupervisedChild {
  child: { pid?: number; exitCode: number | null; signalCode: NodeJS.Signals | null }
}
interface Supervisor {
  children: Map<string, SupervisedChild>
  start(name: string, command: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): SupervisedChild
  run(name: string, command: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): Promise<string[]>
  tail(name: string): string
  logFile(name: string): string
  stopAll(opts?: { graceMs?: number }): Promise<void>
  killAllNow(): void
}

/* The demo's CommonJS helpers (scripts/ is plain JavaScript, outside the TypeScript project). */
const { ensureDatabase, freePorts } = require("../../scripts/lib/database") as {
  ensureDatabase(opts: { dataDir: string; log?: (line: string) => void }): Promise<DatabaseHandle>
  freePorts(count: number, avoid?: number[]): Promise<number[]>
}
const { ProcessSupervisor } = require("../../scripts/lib/demo/processes") as {
  ProcessSupervisor: new (opts: { logDir: string; verbose: boolean; write?: (s: string) => void }) => Supervisor
}
type SandboxCredentials = { clientId: string; clientSecret: string; merchantId: string; webhookSecret: string; outletId: string }
const { SANDBOX_CREDENTIALS } = require("../../scripts/lib/demo/config") as { SANDBOX_CREDENTIALS: SandboxCredentials }
const { medusaEnv } = require("../../scripts/lib/demo/medusa") as {
  medusaEnv(
    config: {
      urls: { backend: string; storefront: string; sandbox: string }
      ports: { medusa: number }
      admin: { enabled: boolean }
      paylater: SandboxCredentials
    },
    databaseUrl: string
  ): NodeJS.ProcessEnv
}
const { waitForHttp } = require("../../scripts/lib/demo/wait") as {
  waitForHttp(url: string, opts?: { timeoutMs?: number; ok?: (status: number) => boolean; exited?: () => string | null }): Promise<number>
}

const CLI = path.join(root, "node_modules", "@medusajs", "cli", "cli.js")
export const STOREFRONT_URL = "http://localhost:8000"

function urlFor(server: Record<string, string | undefined>, name: string): string {
  const user = encodeURIComponent(server.DB_USERNAME || "postgres")
  const password = encodeURIComponent(server.DB_PASSWORD || "")
  return `postgres://${user}:${password}@${server.DB_HOST}:${server.DB_PORT || 5432}/${name}`
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export interface Cluster {
  /** Dedicated database of this run (created here, dropped by `stop`). */
  databaseUrl: string
  databaseName: string
  seed: SeedResult
  logDir: string
  /** Starts two servers on free ports; `env` is added to each (e.g. REDIS_URL). */
  startPair(opts: { label: string; env: NodeJS.ProcessEnv; backendIs: "A" | "B"; sandboxUrl: string }): Promise<ServerPair>
  /**
   * Stops every server still running, drops the database, stops an embedded PostgreSQL, and removes
   * the run's directory (logs included) unless `keepLogs`.
   */
  stop(opts?: { keepLogs?: boolean }): Promise<void>
}

export interface ServerPair {
  a: { url: string; port: number }
  b: { url: string; port: number }
  /** The last lines of a server's output, for failure messages. */
  tail(which: "A" | "B"): string
  logFile(which: "A" | "B"): string
  /** Resident memory of each server's process group now, in MB (Linux `ps`). */
  memoryMb(): { A: number; B: number }
  stop(): Promise<void>
}

/**
 * One database, migrated and seeded. `medusa db:migrate` runs with `migrateEnv` (the main run's
 * Redis settings, so the modules the servers use are the ones migrated); the seed runs in memory,
 * because `medusa exec` would leave the seed's grouped events behind in Redis (`staging:*` keys,
 * which no prefix option covers) when it exits.
 */
export async function startCluster(opts: { runId: string; migrateEnv: NodeJS.ProcessEnv; log: (line: string) => void }): Promise<Cluster> {
  const { runId, log } = opts
  const workDir = path.join(root, ".tmp", `multi-instance-${runId}`)
  const logDir = path.join(workDir, "logs")
  fs.mkdirSync(logDir, { recursive: true })
  // As root, an embedded PostgreSQL runs as an unprivileged user that must reach its data directory.
  fs.chmodSync(workDir, 0o755)

  const db = await ensureDatabase({ dataDir: path.join(workDir, "pg"), log })
  const server: Record<string, string | undefined> = db.env
  const databaseName = `paylater_multi_${runId.replace(/[^a-z0-9]/gi, "_").toLowerCase()}`
  const adminUrl = urlFor(server, "postgres")
  const databaseUrl = urlFor(server, databaseName)
  await withClient(adminUrl, (c) => c.query(`create database "${databaseName}"`))
  log(`database ${databaseName} created`)

  const supervisors = new Set<Supervisor>()
  const newSupervisor = () => {
    const s = new ProcessSupervisor({ logDir, verbose: false, write: (line) => log(line.trim()) })
    supervisors.add(s)
    return s
  }
  // If jest dies without running afterAll, no server may outlive it.
  const killAll = () => supervisors.forEach((s) => s.killAllNow())
  process.once("exit", killAll)

  const stop = async ({ keepLogs = true }: { keepLogs?: boolean } = {}) => {
    for (const s of supervisors) await s.stopAll({ graceMs: 10_000 })
    supervisors.clear()
    process.off("exit", killAll)
    await withClient(adminUrl, (c) => c.query(`drop database if exists "${databaseName}" with (force)`)).catch((e) =>
      log(`could not drop ${databaseName}: ${(e as Error).message}`)
    )
    await db.stop().catch((e) => log(`PostgreSQL stop failed: ${(e as Error).message}`))
    if (keepLogs) log(`logs kept in ${logDir}`)
    else fs.rmSync(workDir, { recursive: true, force: true })
  }

  try {
    const cliEnv = baseEnv({ backend: "http://localhost:9000", sandbox: "http://127.0.0.1:4010", port: 9000, databaseUrl })
    const tools = newSupervisor()
    let started = Date.now()
    await tools.run("medusa-migrate", process.execPath, [CLI, "db:migrate"], { cwd: root, env: { ...cliEnv, ...opts.migrateEnv } })
    log(`migrations applied (${Date.now() - started} ms)`)

    started = Date.now()
    const seedFile = path.join(workDir, "seed.json")
    await tools.run("medusa-seed", process.execPath, [CLI, "exec", "./integration-tests/multi-instance/seed-store.ts"], {
      cwd: root,
      env: { ...cliEnv, PAYLATER_SEED_OUT: seedFile },
    })
    const seed = JSON.parse(fs.readFileSync(seedFile, "utf8")) as SeedResult
    log(`store seeded (${Date.now() - started} ms)`)

    return {
      databaseUrl,
      databaseName,
      seed,
      logDir,
      stop,
      async startPair({ label, env, backendIs, sandboxUrl }) {
        const supervisor = newSupervisor()
        const [portA, portB] = await freePorts(2)
        const a = { port: portA, url: `http://localhost:${portA}` }
        const b = { port: portB, url: `http://localhost:${portB}` }
        // Both instances stand behind one public URL; here that is whichever the test names.
        const backend = backendIs === "A" ? a.url : b.url
        const name = (which: "A" | "B") => `${label}-${which}`
        const started = Date.now()
        for (const [which, s] of [["A", a], ["B", b]] as const) {
          supervisor.start(name(which), process.execPath, [CLI, "start", "--port", String(s.port)], {
            cwd: root,
            env: { ...baseEnv({ backend, sandbox: sandboxUrl, port: s.port, databaseUrl }), ...env },
          })
        }
        const exited = (which: "A" | "B") => () => {
          const entry = supervisor.children.get(name(which))
          const running = entry && entry.child.exitCode === null && entry.child.signalCode === null
          return running ? null : `${name(which)} exited:\n${supervisor.tail(name(which))}`
        }
        try {
          await Promise.all(
            (["A", "B"] as const).map((which) =>
              waitForHttp(`${which === "A" ? a.url : b.url}/health`, { ok: (st) => st === 200, timeoutMs: 150_000, exited: exited(which) })
            )
          )
        } catch (error) {
          await supervisor.stopAll({ graceMs: 5_000 })
          throw error
        }
        log(`${label}: servers A :${a.port} and B :${b.port} answer (${Date.now() - started} ms)`)
        return {
          a,
          b,
          tail: (which) => supervisor.tail(name(which)),
          logFile: (which) => supervisor.logFile(name(which)),
          memoryMb: () => ({ A: groupRssMb(supervisor, name("A")), B: groupRssMb(supervisor, name("B")) }),
          async stop() {
            await supervisor.stopAll({ graceMs: 10_000 })
            supervisors.delete(supervisor)
          },
        }
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}

function groupRssMb(supervisor: Supervisor, name: string): number {
  const pgid = supervisor.children.get(name)?.child.pid
  if (!pgid) return 0
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(pgid)], { encoding: "utf8" })
    return Math.round(out.split("\n").reduce((kb, line) => kb + (Number(line.trim()) || 0), 0) / 1024)
  } catch {
    return 0
  }
}

/** What medusa-config.ts reads, as the demo sets it, minus anything the test runner leaks. */
function baseEnv(o: { backend: string; sandbox: string; port: number; databaseUrl: string }): NodeJS.ProcessEnv {
  const env = medusaEnv(
    {
      urls: { backend: o.backend, storefront: STOREFRONT_URL, sandbox: o.sandbox },
      ports: { medusa: o.port },
      admin: { enabled: false },
      paylater: SANDBOX_CREDENTIALS,
    },
    o.databaseUrl
  )
  // Jest's --experimental-vm-modules and worker id are the test runner's, not the servers'; Redis
  // is set per run by the test only.
  for (const name of ["NODE_OPTIONS", "JEST_WORKER_ID", "REDIS_URL", "MEDUSA_REDIS_PREFIX", "MEDUSA_WORKER_MODE"]) delete env[name]
  return env
}

/**
 * Starts `scripts/demo.js` for a browser test, the way a person runs `npm run demo`, but isolated:
 * free ports, its own embedded PostgreSQL data directory, state file and logs under a temporary
 * directory, and never the developer's DATABASE_URL / DB_HOST (nor the test runner's database).
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

const root = path.resolve(__dirname, "..", "..")

export interface DemoState {
  demoPid: number
  urls: { backend: string; storefront: string; sandbox: string; admin: string; webhook: string }
  publishableKey: string
  regionId: string
  /** The demo's database (the embedded server, or the machine's own PostgreSQL it fell back to). */
  databaseUrl: string
  /** False when the demo fell back to the machine's PostgreSQL. */
  databaseEmbedded: boolean
  processes: { name: string; pid: number }[]
}

export interface RunningDemo {
  state: DemoState
  dir: string
  /** Everything the demo printed so far (for failure messages). */
  output(): string
  /** Ctrl-C, then wait for the demo to exit; resolves with its exit code. */
  stop(): Promise<number | null>
}

const { freePort, freePorts } = require("../../scripts/lib/database") as {
  freePort(): Promise<number>
  freePorts(count: number, avoid?: number[]): Promise<number[]>
}
export { freePort }

/** A client on the server of a database URL (its `postgres` database), and the database's name. */
function serverOf(databaseUrl: string): { name: string; client: import("pg").Client } {
  const { Client } = require("pg") as typeof import("pg")
  const url = new URL(databaseUrl)
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = "/postgres"
  return { name, client: new Client({ connectionString: url.toString() }) }
}

/** Whether the database a URL names exists on its server. */
export async function databaseExists(databaseUrl: string): Promise<boolean> {
  const { name, client } = serverOf(databaseUrl)
  await client.connect()
  try {
    return (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** Drops the run's database (on the machine's PostgreSQL it would stay; an embedded server is stopped by now: nothing to do). */
async function dropDatabaseOf(databaseUrl: string): Promise<void> {
  const { name, client } = serverOf(databaseUrl)
  try {
    await client.connect()
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`)
  } catch {
    // Nothing to drop, or the server is gone: nothing left behind that a next run would reuse.
  } finally {
    await client.end().catch(() => undefined)
  }
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)))
}

export async function startDemo(env: Record<string, string> = {}): Promise<RunningDemo> {
  fs.mkdirSync(path.join(root, ".tmp"), { recursive: true })
  const dir = fs.mkdtempSync(path.join(root, ".tmp", "demo-test-"))
  // mkdtemp makes it 0700; as root, embedded PostgreSQL runs as an unprivileged user that must reach it.
  fs.chmodSync(dir, 0o755)
  // Distinct from each other and from a port the caller chose (DEMO_PG_PORT).
  const callerPorts = Object.values(env).filter((v) => /^\d+$/.test(v)).map(Number)
  const [medusaPort, storefrontPort, sandboxPort] = await freePorts(3, callerPorts)
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    MEDUSA_PORT: String(medusaPort),
    STOREFRONT_PORT: String(storefrontPort),
    PAYLATER_SANDBOX_PORT: String(sandboxPort),
    DEMO_PG_DIR: path.join(dir, "pg"),
    DEMO_STATE_FILE: path.join(dir, "state.json"),
    DEMO_LOG_DIR: path.join(dir, "logs"),
    // A database of this run's own: where embedded PostgreSQL cannot start (as root under a directory
    // other users cannot enter) the demo falls back to the machine's PostgreSQL, where the default
    // name would be shared with every earlier run's demo (its notifications, its orders). Dropped on stop.
    DEMO_DB_NAME: `paylater_demo_test_${process.pid}_${Date.now().toString(36)}`,
    ...env,
  }
  for (const name of ["DATABASE_URL", "DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD", "TEST_TYPE", "NODE_OPTIONS"]) {
    delete childEnv[name]
  }

  const child = spawn(process.execPath, [path.join(root, "scripts", "demo.js")], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))

  // Ready = the banner was printed (the state file is written just before it).
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (output.includes("PayLater demo is ready")) {
        child.stdout!.off("data", onData)
        resolve()
      }
    }
    child.stdout!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`demo exited with ${code} before it was ready:\n${output}`)))
  })
  const state = JSON.parse(fs.readFileSync(childEnv.DEMO_STATE_FILE!, "utf8")) as DemoState

  return {
    state,
    dir,
    output: () => output,
    stop: async () => {
      child.kill("SIGINT")
      const code = await exitOf(child)
      // On the machine's PostgreSQL (the demo fell back to it) the database would stay behind.
      if (!state.databaseEmbedded) await dropDatabaseOf(state.databaseUrl)
      return code
    },
  }
}

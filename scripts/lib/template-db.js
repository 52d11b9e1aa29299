// One migrated database per test run. Every in-process integration suite used to create an empty
// database and run all of Medusa's migrations and link syncs into it (about 10 s a suite); instead
// scripts/test.js migrates one database here, once, with Medusa's own CLI, and each suite starts
// from a copy of it (`CREATE DATABASE x TEMPLATE t`, integration-tests/helpers/runner.ts), on which
// the test runner's own migration pass finds nothing left to do.
//
// The suites find the template through PAYLATER_TEST_TEMPLATE_DB; without it (jest run by hand)
// each suite migrates its own database as before.
const path = require("node:path")
const { spawn } = require("node:child_process")
const { Client } = require("pg")

/** The variable the integration suites read the template's name from. */
const TEMPLATE_ENV = "PAYLATER_TEST_TEMPLATE_DB"

function connectionUrl(dbEnv, database) {
  const user = encodeURIComponent(dbEnv.DB_USERNAME || "postgres")
  const password = dbEnv.DB_PASSWORD ? `:${encodeURIComponent(dbEnv.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${dbEnv.DB_HOST || "localhost"}:${dbEnv.DB_PORT || "5432"}/${database}`
}

async function onServer(dbEnv, statements) {
  const client = new Client({ connectionString: connectionUrl(dbEnv, "postgres") })
  await client.connect()
  try {
    for (const sql of statements) await client.query(sql)
  } finally {
    await client.end()
  }
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
 * Creates and migrates `paylater_test_template_<pid>` on the run's PostgreSQL.
 * @param {{ root: string, dbEnv: Record<string,string>, env: NodeJS.ProcessEnv, log: (s: string) => void }} opts
 * @returns {Promise<{ name: string, drop: () => Promise<void> }>}
 */
async function createTemplateDatabase({ root, dbEnv, env, log }) {
  const name = `paylater_test_template_${process.pid}`
  const started = Date.now()
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
  log(`template database ${name} migrated once for every suite (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  return {
    name,
    drop: () => onServer(dbEnv, [`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`, `DROP DATABASE IF EXISTS "${name}"`]),
  }
}

module.exports = { createTemplateDatabase, TEMPLATE_ENV }

// The demo's database: whichever PostgreSQL scripts/lib/database.js finds (DATABASE_URL, DB_HOST,
// or an embedded, persistent server under .tmp/demo-pg), plus the few read-only questions the demo
// asks it directly ("is it seeded?", "does the admin exist?") so that a warm start does not have to
// boot Medusa once more just to find out.
const path = require("node:path")
const { Client } = require("pg")
const { ensureDatabase } = require("../database")

/** Seeded data is recognised by this label (see demo/seed.ts; seedStore derives titles and handle from it). */
const DEMO_LABEL = "PayLater demo"
const DEMO_PRODUCT_HANDLE = "paylater-demo-product"

function urlFor({ DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD }, name) {
  const auth = `${encodeURIComponent(DB_USERNAME || "postgres")}:${encodeURIComponent(DB_PASSWORD || "")}`
  return `postgres://${auth}@${DB_HOST}:${DB_PORT || 5432}/${name}`
}

async function withClient(url, fn) {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * @returns {Promise<{ databaseUrl: string, embedded: boolean, note: string, stop: () => Promise<void> }>}
 */
async function startDatabase({ dataDir, port, databaseName, log }) {
  const db = await ensureDatabase({ dataDir, persistent: true, port, log })
  if (process.env.DATABASE_URL && !process.env.DB_HOST) {
    // The user's own database, name included: never create or drop anything on their server.
    return { databaseUrl: process.env.DATABASE_URL, embedded: false, note: "DATABASE_URL", stop: db.stop }
  }
  const server = db.env
  const databaseUrl = urlFor(server, databaseName)
  const created = await withClient(urlFor(server, "postgres"), async (client) => {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [databaseName])
    if (rowCount) return false
    // Identifiers cannot be bound as parameters; the name comes from our config, quoted anyway.
    await client.query(`create database "${databaseName.replace(/"/g, '""')}"`)
    return true
  })
  const where = db.embedded ? `embedded, ${dataDir}` : `DB_HOST=${server.DB_HOST}`
  return {
    databaseUrl,
    embedded: db.embedded,
    note: `${where}, database ${databaseName}${created ? " created" : ""}`,
    stop: db.stop,
  }
}

/**
 * The demo's database, ready to use: an external server (DATABASE_URL / DB_HOST) is used from this
 * process; the embedded one runs in its own supervised process (see postgres-child.js for why).
 * @returns {Promise<{ databaseUrl: string, embedded: boolean, note: string, stop: () => Promise<void> }>}
 */
async function openDatabase({ config, supervisor, onUnexpectedExit }) {
  const common = { dataDir: config.paths.pgData, port: config.pgPort, databaseName: config.databaseName }
  if (process.env.DATABASE_URL || process.env.DB_HOST) {
    return startDatabase({ ...common, log: () => {} })
  }
  supervisor.start("postgres", process.execPath, [path.join(__dirname, "postgres-child.js")], {
    cwd: config.root,
    env: {
      ...process.env,
      DEMO_PG_DIR: common.dataDir,
      DEMO_PG_PORT: common.port ? String(common.port) : "",
      DEMO_DB_NAME: common.databaseName,
    },
    onUnexpectedExit,
  })
  const [, json] = await supervisor.waitForLine("postgres", /^DEMO_DATABASE_READY (.*)$/)
  // `embedded`: false when the child fell back to the machine's PostgreSQL (scripts/lib/database.js).
  const { databaseUrl, note, embedded } = JSON.parse(json)
  // Stopped with the other children (after Medusa, which was started later).
  return { databaseUrl, note, embedded, stop: async () => {} }
}

/**
 * What the database holds of the demo data: `null` when nothing, the storefront key and Qatar
 * region when complete; throws when an earlier seed was interrupted half-way (seedStore creates the
 * key first and the product last), because seeding again would duplicate what is there.
 */
async function findSeededStore(databaseUrl) {
  return withClient(databaseUrl, async (client) => {
    const exists = await client.query("select to_regclass('public.api_key') is not null as ok")
    if (!exists.rows[0].ok) return null
    const key = await client.query(
      `select token from api_key
        where type = 'publishable' and title = $1 and revoked_at is null and deleted_at is null
        order by created_at limit 1`,
      [`${DEMO_LABEL} storefront`]
    )
    if (!key.rowCount) return null
    const region = await client.query(
      "select id from region where currency_code = 'qar' and deleted_at is null order by created_at limit 1"
    )
    const product = await client.query("select 1 from product where handle = $1 and deleted_at is null", [
      DEMO_PRODUCT_HANDLE,
    ])
    if (!region.rowCount || !product.rowCount) {
      throw new Error(
        "the demo data is incomplete (an earlier first run was interrupted while seeding): " +
          "delete the demo database (rm -rf .tmp/demo-pg, or drop DEMO_DB_NAME) and run again"
      )
    }
    return { publishableKey: key.rows[0].token, regionId: region.rows[0].id }
  })
}

/** Enabled PayLater providers (registered by a Medusa boot) that the region does not offer yet. */
async function payLaterProvidersNotOffered(databaseUrl, regionId) {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select p.id from payment_provider p
        where p.id like 'pp\\_paylater%' and p.is_enabled and p.deleted_at is null
          and not exists (select 1 from region_payment_provider r
                           where r.region_id = $1 and r.payment_provider_id = p.id and r.deleted_at is null)
        order by p.id`,
      [regionId]
    )
    return rows.map((r) => r.id)
  })
}

async function adminUserExists(databaseUrl, email) {
  return withClient(databaseUrl, async (client) => {
    const { rowCount } = await client.query('select 1 from "user" where email = $1 and deleted_at is null', [email])
    return rowCount > 0
  })
}

module.exports = { openDatabase, startDatabase, findSeededStore, payLaterProvidersNotOffered, adminUserExists, DEMO_LABEL }

// Lets a warm start skip `medusa db:migrate` (about 12 s here) when nothing it depends on changed.
//
// The fingerprint covers what decides the schema: the installed Medusa versions (package-lock.json),
// medusa-config.ts, and this project's own migrations and module links. It is stored on the
// database itself (COMMENT ON DATABASE), so it always describes the database it is read from.
// Only the demo's own embedded database is marked; DATABASE_URL / DB_HOST are always migrated.
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { Client } = require("pg")

const PREFIX = "paylater-demo migrated "

function filesUnder(dir, keep) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .filter(keep)
    .sort()
}

function migrationFingerprint(root) {
  const src = path.join(root, "src")
  const files = [
    path.join(root, "package-lock.json"),
    path.join(root, "medusa-config.ts"),
    ...filesUnder(src, (f) => /[\\/](migrations|links)[\\/]/.test(path.relative(root, f))),
  ]
  const hash = crypto.createHash("sha256")
  for (const file of files) {
    if (!fs.existsSync(file)) continue
    hash.update(path.relative(root, file)).update("\0").update(fs.readFileSync(file)).update("\0")
  }
  return hash.digest("hex").slice(0, 32)
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

async function isMigrated(databaseUrl, fingerprint) {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      "select shobj_description(oid, 'pg_database') as note from pg_database where datname = current_database()"
    )
    return rows[0]?.note === `${PREFIX}${fingerprint}`
  })
}

async function markMigrated(databaseUrl, fingerprint) {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query("select current_database() as name")
    const name = rows[0].name.replace(/"/g, '""')
    // COMMENT takes a literal, not a parameter; the fingerprint is hex only.
    await client.query(`comment on database "${name}" is '${PREFIX}${fingerprint}'`)
  })
}

module.exports = { migrationFingerprint, isMigrated, markMigrated }

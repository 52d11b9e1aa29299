/**
 * A fresh store's database and seed, shared by the as-installed suites: a database of its own on
 * the test run's PostgreSQL (scripts/test.js sets DB_*), and the integration tests' seed (one truth
 * for "a store PayLater sells in") as the store's own `medusa exec` script.
 */
import fs from "node:fs"
import path from "node:path"
import { REPO_ROOT } from "./fresh-store"

const PG = {
  host: process.env.DB_HOST ?? "localhost",
  port: Number(process.env.DB_PORT ?? 5432),
  user: process.env.DB_USERNAME ?? "postgres",
  password: process.env.DB_PASSWORD ?? "",
}

export async function onServer(sql: string[]): Promise<void> {
  const { Client } = require("pg") as typeof import("pg")
  const client = new Client({ ...PG, database: "postgres" })
  await client.connect()
  try {
    for (const statement of sql) await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Creates (or recreates) the database; returns its URL. */
export async function createDatabase(name: string): Promise<string> {
  await onServer([`DROP DATABASE IF EXISTS "${name}"`, `CREATE DATABASE "${name}"`])
  const auth = PG.password ? `${encodeURIComponent(PG.user)}:${encodeURIComponent(PG.password)}` : encodeURIComponent(PG.user)
  return `postgres://${auth}@${PG.host}:${PG.port}/${name}`
}

/**
 * A byte-for-byte copy of `from` (PostgreSQL's CREATE DATABASE … TEMPLATE; nothing may be connected
 * to `from` meanwhile): a second store as the first one was at that moment, without booting Medusa
 * to migrate it again.
 */
export async function copyDatabase(from: string, to: string): Promise<string> {
  await onServer([`DROP DATABASE IF EXISTS "${to}"`, `CREATE DATABASE "${to}" TEMPLATE "${from}"`])
  const auth = PG.password ? `${encodeURIComponent(PG.user)}:${encodeURIComponent(PG.password)}` : encodeURIComponent(PG.user)
  return `postgres://${auth}@${PG.host}:${PG.port}/${to}`
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer([`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]).catch(() => undefined)
}

/**
 * Writes the store's seed script (src/scripts/seed.ts); running it writes what it made to `outFile`.
 * `coreFlows` is where the store imports Medusa's workflows from: a pnpm store reaches only its
 * direct dependencies, so it uses `@medusajs/medusa/core-flows` (as Medusa's starter does).
 *
 * `admin`: the staff user the admin checks sign in with, made in the same `medusa exec` as the store
 * (what `medusa user -e -p` does: the user, an emailpass identity, the link between them) instead of
 * one more boot of the store for `medusa user`; no README step runs `medusa user`.
 */
export function writeSeedScript(storeDir: string, outFile: string, admin: { email: string; password: string }, coreFlows = "@medusajs/core-flows"): void {
  const scripts = path.join(storeDir, "src", "scripts")
  fs.mkdirSync(scripts, { recursive: true })
  const seed = fs.readFileSync(path.join(REPO_ROOT, "integration-tests", "helpers", "seed.ts"), "utf8")
  fs.writeFileSync(path.join(scripts, "paylater-seed-data.ts"), seed.replace(/from "@medusajs\/core-flows"/g, `from "${coreFlows}"`))
  fs.writeFileSync(
    path.join(scripts, "seed.ts"),
    [
      `import fs from "node:fs"`,
      `import type { ExecArgs } from "@medusajs/framework/types"`,
      `import { Modules } from "@medusajs/framework/utils"`,
      `import { createUsersWorkflow } from "${coreFlows}"`,
      `import { seedStore } from "./paylater-seed-data"`,
      ``,
      `export default async function seed({ container }: ExecArgs): Promise<void> {`,
      `  const seeded = await seedStore(container, { label: "Fresh store", paylaterInEuRegion: false })`,
      `  const { email, password } = ${JSON.stringify(admin)}`,
      `  const { result: [user] } = await createUsersWorkflow(container).run({ input: { users: [{ email }] } })`,
      `  const auth = container.resolve(Modules.AUTH)`,
      `  const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } })`,
      `  if (error || !authIdentity) throw new Error(\`admin user: \${error}\`)`,
      `  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } })`,
      `  fs.writeFileSync(${JSON.stringify(outFile)}, JSON.stringify(seeded))`,
      `}`,
      ``,
    ].join("\n")
  )
}

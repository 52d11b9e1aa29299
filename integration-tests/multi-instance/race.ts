/**
 * The race the multi-instance test runs, and the ledger it is judged by.
 *
 * Per checkout: the shopper approves on PayLater's hosted page, which makes the sandbox notify
 * server B at once (and, with the `duplicate` webhook fault, once more right after); at the same
 * moment the shopper's browser follows the return redirect to server A and PayLater's merchant
 * dashboard re-sends the notification to B by hand. The webhook route answers at once and Medusa's
 * payment-webhook pipeline places the order a few seconds later (the plugin emits the event with a
 * 5 s delay), so half of the shoppers come back at staggered moments around that delay instead of at
 * once: their cart completion on A then meets the pipeline's on A or B.
 *
 * The ledger is read straight from PostgreSQL: orders linked to the cart, payments and captures of
 * the PayLater session. Exactly-once means 1 / 1 / 1 for every checkout.
 */
import axios from "axios"
import { Client } from "pg"
import type { DeliveryRecord, PayLaterSandbox } from "../../src/sandbox/types"
import { PAYLATER_PROVIDER_ID, type SeedResult } from "../helpers/seed"
import { startCheckout, storeClient, type StoreClient } from "../helpers/store-client"
import { decideOnLink, followToApp } from "../http/paylater-link/shopper"

/** What the plugin's webhook step waits before the pipeline runs (emit-payment-webhook.ts). */
export const PIPELINE_DELAY_MS = 5_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface Checkout {
  index: number
  cartId: string
  sessionId: string
  linkUrl: string
  /** The server the cart was built on (the shopper's requests may land on either). */
  builtOn: "A" | "B"
}

export interface RaceResult {
  checkout: Checkout
  /** When the shopper came back, after approving (ms). */
  returnDelayMs: number
  returnStatus: number
  returnLocation?: string
  manualWebhookStatus?: number
  error?: string
}

export interface LedgerRow {
  cartId: string
  sessionId: string
  orders: number
  orderIds: string[]
  payments: number
  /** Payments of the session with canceled_at set (a live order must keep a live payment). */
  canceledPayments: number
  captures: number
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

export function storesFor(urls: { a: string; b: string }, publishableKey: string): { A: StoreClient; B: StoreClient; apiA: ReturnType<typeof axios.create> } {
  const apiA = axios.create({ baseURL: urls.a })
  const apiB = axios.create({ baseURL: urls.b })
  return { A: storeClient(apiA, publishableKey), B: storeClient(apiB, publishableKey), apiA }
}

/** Carts with shipping and a PayLater session, built alternately on A and B (a few at a time). */
export async function prepareCheckouts(stores: { A: StoreClient; B: StoreClient }, seed: SeedResult, count: number): Promise<Checkout[]> {
  return pool(Array.from({ length: count }, (_, i) => i), 6, async (index) => {
    const builtOn = index % 2 === 0 ? "A" : "B"
    // One shopper per checkout: concurrent guest carts with one new e-mail race on creating its
    // customer (Medusa answers 400 "already exists" to the loser), which is not what is under test.
    const email = `shopper-${index}-${Date.now().toString(36)}@example.com`
    const started = await startCheckout(
      stores[builtOn],
      { regionId: seed.regionId, variantId: seed.variants.standard.id, email, shippingOptionId: seed.shippingOptionId },
      PAYLATER_PROVIDER_ID
    )
    if (!started.session.ok || !started.session.data.session) {
      throw new Error(`checkout ${index}: PayLater session not created: ${JSON.stringify(started.session)}`)
    }
    const session = started.session.data.session
    const linkUrl = (session.data as Record<string, unknown>).payment_link_url
    if (typeof linkUrl !== "string") throw new Error(`checkout ${index}: no payment_link_url in ${JSON.stringify(session.data)}`)
    return { index, cartId: started.cart.id, sessionId: session.id, linkUrl, builtOn }
  })
}

/** Even checkouts come back at once; odd ones spread over 3.5–6.5 s, around the pipeline's delay. */
export function returnDelayFor(index: number, count: number): number {
  if (index % 2 === 0) return 0
  const odd = Math.floor(count / 2)
  const k = (index - 1) / 2
  return Math.round(PIPELINE_DELAY_MS - 1_500 + (3_000 * k) / Math.max(odd - 1, 1))
}

/** Every checkout at the same moment: approve (webhook + duplicate to B), return to A, re-send to B. */
export async function runRace(opts: { sandbox: PayLaterSandbox; apiA: ReturnType<typeof axios.create>; checkouts: Checkout[] }): Promise<RaceResult[]> {
  const { sandbox, apiA, checkouts } = opts
  // Each of these notifications is delivered twice (the copy follows the first attempt).
  sandbox.webhookFault({ mode: "duplicate", count: checkouts.length })
  return Promise.all(
    checkouts.map(async (checkout): Promise<RaceResult> => {
      const returnDelayMs = returnDelayFor(checkout.index, checkouts.length)
      try {
        const location = await decideOnLink(checkout.linkUrl, "approve")
        if (returnDelayMs) await sleep(returnDelayMs)
        const [back, manual] = await Promise.all([
          followToApp(apiA, location),
          sandbox.sendWebhook({ orderId: checkout.sessionId, status: "success" }),
        ])
        return { checkout, returnDelayMs, returnStatus: back.status, returnLocation: back.location, manualWebhookStatus: manual.responseStatus }
      } catch (error) {
        return { checkout, returnDelayMs, returnStatus: 0, error: (error as Error).message }
      }
    })
  )
}

/** The automatic notifications of one order (original and duplicate), grouped by delivery chain. */
function automaticChains(deliveries: DeliveryRecord[], orderId: string): Map<string, DeliveryRecord[]> {
  const chains = new Map<string, DeliveryRecord[]>()
  for (const d of deliveries) {
    if (d.orderId !== orderId || d.manual) continue
    const key = `${d.notificationId}:${d.duplicate ? "copy" : "original"}`
    chains.set(key, [...(chains.get(key) ?? []), d])
  }
  return chains
}

const chainFinished = (records: DeliveryRecord[]) =>
  records.some((r) => r.outcome === "delivered" || r.outcome === "dropped" || r.outcome === "skipped" || r.attempt >= r.maxAttempts)

/** True once every order's original notification and its duplicate have reached a final outcome. */
export function deliveriesSettled(deliveries: DeliveryRecord[], orderIds: string[]): boolean {
  return orderIds.every((id) => {
    const chains = [...automaticChains(deliveries, id).values()]
    return chains.length >= 2 && chains.every(chainFinished)
  })
}

/**
 * Refunds the servers asked PayLater for, for these orders. A checkout is paid once and never
 * refunded here: a refund request means some instance "compensated" a completion it lost.
 */
export function refundRequests(sandbox: PayLaterSandbox, orderIds: string[]): string[] {
  const ids = new Set(orderIds)
  return sandbox
    .requests()
    .filter((r) => r.endpoint === "refund")
    .map((r) => String((r.body as { order_id?: unknown } | undefined)?.order_id ?? "?"))
    .filter((id) => ids.has(id) || id === "?")
}

/** Every webhook answer the servers gave for these orders (automatic attempts and manual re-sends). */
export function webhookStatuses(deliveries: DeliveryRecord[], orderIds: string[]): number[] {
  const ids = new Set(orderIds)
  return deliveries.filter((d) => ids.has(d.orderId) && d.responseStatus !== undefined).map((d) => d.responseStatus as number)
}

export async function readLedger(databaseUrl: string, checkouts: Checkout[]): Promise<LedgerRow[]> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query(
      `select c.cart_id, c.session_id,
              (select coalesce(array_agg(oc.order_id order by oc.order_id), '{}') from order_cart oc
                where oc.cart_id = c.cart_id and oc.deleted_at is null) as order_ids,
              (select count(*) from payment p
                where p.payment_session_id = c.session_id and p.deleted_at is null)::int as payments,
              (select count(*) from payment p
                where p.payment_session_id = c.session_id and p.deleted_at is null and p.canceled_at is not null)::int as canceled,
              (select count(*) from capture k join payment p on p.id = k.payment_id
                where p.payment_session_id = c.session_id and k.deleted_at is null and p.deleted_at is null)::int as captures
         from unnest($1::text[], $2::text[]) as c(cart_id, session_id)`,
      [checkouts.map((c) => c.cartId), checkouts.map((c) => c.sessionId)]
    )
    return rows.map((r) => ({
      cartId: r.cart_id,
      sessionId: r.session_id,
      orders: r.order_ids.length,
      orderIds: r.order_ids,
      payments: r.payments,
      canceledPayments: r.canceled,
      captures: r.captures,
    }))
  } finally {
    await client.end()
  }
}

/** Orders in the database: live ones, and ones created then rolled back (soft-deleted by compensation). */
export async function countOrders(databaseUrl: string): Promise<{ live: number; rolledBack: number }> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query(
      `select count(*) filter (where deleted_at is null)::int as live,
              count(*) filter (where deleted_at is not null)::int as rolled_back
         from "order"`
    )
    return { live: rows[0].live, rolledBack: rows[0].rolled_back }
  } finally {
    await client.end()
  }
}

/**
 * Waits until the race has played out: every notification delivered (or given up), the pipeline's
 * delay passed, the event queue empty when there is one to look at, and the ledger unchanged between
 * two reads. Returns notes on anything that did not settle (for the control run's report).
 */
export async function waitUntilSettled(opts: {
  sandbox: PayLaterSandbox
  databaseUrl: string
  checkouts: Checkout[]
  backlog?: () => Promise<number>
  timeoutMs?: number
}): Promise<{ ledger: LedgerRow[]; notes: string[] }> {
  const { sandbox, databaseUrl, checkouts } = opts
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000)
  const orderIds = checkouts.map((c) => c.sessionId)
  const notes: string[] = []
  try {
    await sandbox.waitForDeliveries((d) => deliveriesSettled(d, orderIds), Math.max(deadline - Date.now(), 1_000))
  } catch {
    notes.push("not every webhook delivery reached a final outcome")
  }
  // The last accepted notification's pipeline run starts PIPELINE_DELAY_MS after its 200.
  await sleep(PIPELINE_DELAY_MS)
  if (opts.backlog) {
    let left = await opts.backlog()
    while (left > 0 && Date.now() < deadline) {
      await sleep(250)
      left = await opts.backlog()
    }
    if (left > 0) notes.push(`${left} event(s) still queued in Redis`)
  }
  let previous = JSON.stringify(await readLedger(databaseUrl, checkouts))
  for (;;) {
    await sleep(1_000)
    const current = await readLedger(databaseUrl, checkouts)
    const text = JSON.stringify(current)
    if (text === previous) return { ledger: current, notes }
    if (Date.now() > deadline) {
      notes.push("the ledger was still changing at the deadline")
      return { ledger: current, notes }
    }
    previous = text
  }
}

/** One line per anomaly, for failure messages and the control run's observation. */
export function describeAnomalies(ledger: LedgerRow[], results: RaceResult[]): string[] {
  const lines: string[] = []
  for (const row of ledger) {
    if (row.orders !== 1 || row.payments !== 1 || row.captures !== 1 || row.canceledPayments !== 0) {
      lines.push(
        `cart ${row.cartId}: ${row.orders} orders (${row.orderIds.join(", ") || "none"}), ${row.payments} payments ` +
          `(${row.canceledPayments} canceled), ${row.captures} captures`
      )
    }
  }
  for (const r of results) {
    if (r.error) lines.push(`checkout ${r.checkout.index}: ${r.error}`)
    else if (r.returnStatus >= 500) lines.push(`checkout ${r.checkout.index}: return answered ${r.returnStatus}`)
    if ((r.manualWebhookStatus ?? 0) >= 500) lines.push(`checkout ${r.checkout.index}: manual webhook answered ${r.manualWebhookStatus}`)
  }
  return lines
}

/** Lines a server logged at `level` (Medusa's logger), ANSI colours removed. */
export function serverLog(logText: string, level: "error" | "warn"): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = logText.replace(/\u001b\[[0-9;]*m/g, "")
  const prefix = new RegExp(`^${level}:\\s*`)
  return plain
    .split("\n")
    .filter((line) => prefix.test(line))
    .map((line) => line.replace(prefix, "").trim())
}

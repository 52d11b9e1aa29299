/**
 * The fault campaign's invariant checker (bench/fault-campaign.js): after the faults stop and
 * reconciliation and the automatic refund have run, PayLater's records (the sandbox) are compared
 * with Medusa's (orders, payments, refunds) and the plugin's ledger (attempts, refund attempts, the
 * list on Settings → PayLater). Pure: it takes plain records the campaign read from outside the
 * server, so every check is unit-tested with hand-made records that break it.
 *
 * Amounts are two-decimal QAR text and are compared as whole dirhams (BigInt), never as floats.
 */

/** One order PayLater holds (sandbox `GET /__sandbox/orders`). status: 0 not started, 1 pending, 2 paid, 3 failed. */
export interface PayLaterOrderRecord {
  order_id: string
  status: number
  amount: string
  refunds: Array<{ amount: string }>
}

/** A Medusa payment made by a PayLater provider, with the PayLater order it is for and the Medusa order holding it. */
export interface MedusaPaymentRecord {
  id: string
  /** The PayLater order this payment is for: its data (the provider's authorization output, where its refunds go), else a ledger row naming it. */
  paylater_order_id: string | null
  /** The Medusa order whose payment collection holds it (null: the cart is no order). */
  order_id: string | null
  cart_id: string | null
  amount: string
  canceled: boolean
  /** Medusa captured it (captured_at): only captured money counts as the order's paid money. */
  captured: boolean
  refunds: Array<{ id: string; amount: string }>
}

/** A Medusa payment session of a PayLater provider, with what a completion of its cart could take. */
export interface MedusaSessionRecord {
  id: string
  /** Medusa's session status: "authorized" and "pending" are what a cart completion takes or authorizes. */
  status: string
  /** The PayLater order its money is: its payment's, else the session's current attempt. */
  paylater_order_id: string | null
  cart_id: string | null
  /** The cart became an order (completed_at set). */
  cart_completed: boolean
  payment_id: string | null
  payment_canceled: boolean
}

/** A Medusa order whose cart paid (or tried to pay) with PayLater. */
export interface MedusaOrderRecord {
  id: string
  cart_id: string | null
}

/** A row of the attempt ledger (`paylater_attempt`). */
export interface AttemptRow {
  paylater_order_id: string
  state: string
  cart_id: string | null
  expires_at: string | null
  last_status_at: string | null
  next_ask_at: string | null
  created_at: string
}

/** A row of the refund guard (`paylater_refund_attempt`). */
export interface RefundAttemptRow {
  id: string
  paylater_order_id: string
  amount: string
  status: string
}

/** An item on Settings → PayLater (`paylater_attention`). */
export interface AttentionRow {
  id: string
  kind: string
  status: string
  paylater_order_id: string | null
  /** A Medusa refund record PayLater never paid out, listed for a person (reconciliation/unsent-refunds.ts). */
  medusa_refund_id?: string | null
}

export interface CampaignRecords {
  seed: string
  /** When the records were read (epoch ms). */
  now: number
  /** How long an open ledger row may stay due before reconciliation must have asked PayLater about it. */
  askSlackMs: number
  paylater: PayLaterOrderRecord[]
  payments: MedusaPaymentRecord[]
  sessions: MedusaSessionRecord[]
  orders: MedusaOrderRecord[]
  attempts: AttemptRow[]
  refundAttempts: RefundAttemptRow[]
  attention: AttentionRow[]
}

export const INVARIANTS = {
  paid_is_held: "every order PayLater holds as paid is held by exactly one Medusa order, refunded in full, or open on Settings → PayLater",
  order_is_paid: "no Medusa order placed with PayLater without a PayLater payment for it",
  captured_once: "no cart captured twice unless the extra payment is refunded or listed",
  refunds_sound: "refunds at PayLater never exceed what was paid, none is sent twice, each is recorded in Medusa or on the list",
  rows_asked: "no ledger row left open past its window without PayLater having been asked",
  refunded_not_held: "no order holds money PayLater refunded in full",
  order_money_matches: "every order's PayLater money is what PayLater holds for it minus refunds",
  refunded_unusable: "no Medusa session or payment stays usable for money PayLater refunded in full",
} as const

export type InvariantName = keyof typeof INVARIANTS

export interface Violation {
  invariant: InvariantName
  /** What is wrong, in one sentence. */
  problem: string
  /** The ids a person needs to look it up (PayLater order, Medusa order, payment, cart, ...). */
  ids: Record<string, string | string[] | null>
  seed: string
}

const PAID = 2

/** Two-decimal QAR text → whole dirhams. */
export function dirhams(amount: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(amount).trim())
  if (!match) throw new Error(`not a QAR amount: ${amount}`)
  const value = BigInt(match[2]) * 100n + BigInt((match[3] ?? "").padEnd(2, "0"))
  return match[1] ? -value : value
}

const sum = (amounts: Array<{ amount: string }>) => amounts.reduce((total, a) => total + dirhams(a.amount), 0n)

const uniq = <T>(values: T[]) => [...new Set(values)]

export function checkInvariants(records: CampaignRecords): Violation[] {
  const violations: Violation[] = []
  const add = (invariant: InvariantName, problem: string, ids: Violation["ids"]) =>
    violations.push({ invariant, problem, ids, seed: records.seed })

  const paylaterById = new Map(records.paylater.map((o) => [o.order_id, o]))
  const listed = new Set(records.attention.filter((a) => a.status === "open" && a.paylater_order_id).map((a) => a.paylater_order_id!))
  const everListed = new Set(records.attention.filter((a) => a.paylater_order_id).map((a) => a.paylater_order_id!))
  const livePayments = records.payments.filter((p) => !p.canceled)
  const paymentsOf = (orderId: string) => livePayments.filter((p) => p.paylater_order_id === orderId)
  const refundedInFull = (o: PayLaterOrderRecord) => sum(o.refunds) >= dirhams(o.amount)
  const isPaid = (orderId: string | null) => !!orderId && paylaterById.get(orderId)?.status === PAID

  // 1. Paid at PayLater: held by exactly one order, or refunded in full, or listed. Never silent.
  for (const order of records.paylater.filter((o) => o.status === PAID)) {
    const holders = uniq(paymentsOf(order.order_id).map((p) => p.order_id).filter((id): id is string => !!id))
    if (holders.length > 1) {
      add("paid_is_held", `PayLater order ${order.order_id} (${order.amount} QAR) is held by ${holders.length} Medusa orders`, {
        paylater_order_id: order.order_id,
        order_ids: holders,
      })
    } else if (holders.length === 0 && !refundedInFull(order) && !listed.has(order.order_id)) {
      add(
        "paid_is_held",
        `PayLater took ${order.amount} QAR for ${order.order_id} (refunded ${formatDirhams(sum(order.refunds))}): no Medusa order holds it and it is not on Settings → PayLater`,
        { paylater_order_id: order.order_id, payment_ids: paymentsOf(order.order_id).map((p) => p.id) }
      )
    }
  }

  // 2. Every order placed with PayLater holds a payment PayLater took, for its amount.
  for (const order of records.orders) {
    const held = livePayments.filter((p) => p.order_id === order.id)
    const backed = held.filter((p) => isPaid(p.paylater_order_id) && dirhams(paylaterById.get(p.paylater_order_id!)!.amount) === dirhams(p.amount))
    if (!backed.length) {
      add("order_is_paid", `Medusa order ${order.id} was placed with PayLater but PayLater holds no paid order of its amount for it`, {
        order_id: order.id,
        cart_id: order.cart_id,
        payment_ids: held.map((p) => p.id),
        paylater_order_ids: held.map((p) => p.paylater_order_id).filter((id): id is string => !!id),
      })
    }
  }

  // 3. One capture per cart that stays: every other paid PayLater order of the cart is refunded in full or listed.
  const cartOf = new Map<string, string>()
  for (const row of records.attempts) if (row.cart_id) cartOf.set(row.paylater_order_id, row.cart_id)
  for (const p of records.payments) if (p.cart_id && p.paylater_order_id && !cartOf.has(p.paylater_order_id)) cartOf.set(p.paylater_order_id, p.cart_id)
  const keptByCart = new Map<string, string[]>()
  for (const order of records.paylater.filter((o) => o.status === PAID && !refundedInFull(o) && !listed.has(o.order_id))) {
    const cart = cartOf.get(order.order_id)
    if (!cart) continue
    keptByCart.set(cart, [...(keptByCart.get(cart) ?? []), order.order_id])
  }
  for (const [cart, kept] of keptByCart) {
    if (kept.length > 1) {
      add("captured_once", `cart ${cart} was paid ${kept.length} times at PayLater and no extra payment is refunded or listed`, {
        cart_id: cart,
        paylater_order_ids: kept,
      })
    }
  }

  // 4. Refunds: never above what was paid, none sent twice, each recorded in Medusa or on the list.
  for (const order of records.paylater.filter((o) => o.refunds.length)) {
    const refunded = sum(order.refunds)
    const ids = { paylater_order_id: order.order_id }
    if (refunded > dirhams(order.amount)) {
      add("refunds_sound", `PayLater refunded ${formatDirhams(refunded)} QAR of ${order.amount} QAR for ${order.order_id}`, ids)
    }
    const attempts = records.refundAttempts.filter((a) => a.paylater_order_id === order.order_id)
    const mayHaveSent = attempts.filter((a) => ["pending", "unknown", "succeeded", "refunded"].includes(a.status))
    if (order.refunds.length > mayHaveSent.length) {
      add(
        "refunds_sound",
        `PayLater holds ${order.refunds.length} refunds for ${order.order_id} but the refund guard wrote ${mayHaveSent.length} that may have been sent (a refund sent twice, or with no record)`,
        { ...ids, refund_attempt_ids: attempts.map((a) => a.id) }
      )
    }
    const inMedusa = sum(paymentsOf(order.order_id).flatMap((p) => p.refunds))
    const unknownListed = sum(mayHaveSent.filter((a) => a.status === "pending" || a.status === "unknown"))
    const onTheList = everListed.has(order.order_id) ? sum(mayHaveSent) : 0n
    if (refunded > inMedusa + unknownListed + onTheList) {
      add(
        "refunds_sound",
        `PayLater refunded ${formatDirhams(refunded)} QAR for ${order.order_id}; Medusa records ${formatDirhams(inMedusa)} QAR and Settings → PayLater lists none of the rest`,
        { ...ids, payment_ids: paymentsOf(order.order_id).map((p) => p.id), refund_attempt_ids: attempts.map((a) => a.id) }
      )
    }
  }
  // Medusa refund records PayLater never paid out (a process or connection died before Medusa dropped
  // them) are accepted only while they are on the list for a person.
  const unpaidListed = new Set(records.attention.filter((a) => a.status === "open" && a.medusa_refund_id).map((a) => a.medusa_refund_id!))
  for (const p of livePayments) {
    const medusaRefunded = sum(p.refunds.filter((r) => !unpaidListed.has(r.id)))
    const order = p.paylater_order_id ? paylaterById.get(p.paylater_order_id) : undefined
    // A refund whose outcome nobody knows (listed for a person to check with PayLater) may be in Medusa's records only.
    const unknownListed = listed.has(p.paylater_order_id ?? "")
      ? sum(records.refundAttempts.filter((a) => a.paylater_order_id === p.paylater_order_id && a.status === "unknown"))
      : 0n
    if (medusaRefunded > 0n && medusaRefunded > (order ? sum(order.refunds) : 0n) + unknownListed) {
      add("refunds_sound", `Medusa records ${formatDirhams(medusaRefunded)} QAR refunded on payment ${p.id} but PayLater refunded less`, {
        payment_id: p.id,
        paylater_order_id: p.paylater_order_id,
        refund_ids: p.refunds.map((r) => r.id),
      })
    }
  }

  // 5. Open rows are asked: none stays due (past its window) longer than reconciliation needs to ask it.
  for (const row of records.attempts.filter((r) => r.state === "starting" || r.state === "open")) {
    const due = Date.parse(row.next_ask_at ?? row.created_at)
    if (Number.isNaN(due) || records.now - due > records.askSlackMs) {
      add(
        "rows_asked",
        `ledger row ${row.paylater_order_id} is ${row.state}, due since ${row.next_ask_at ?? row.created_at} (last asked ${row.last_status_at ?? "never"}), and PayLater was not asked`,
        { paylater_order_id: row.paylater_order_id, cart_id: row.cart_id }
      )
    }
  }
  checkTwoRecords(records, add)
  return violations
}

type Add = (invariant: InvariantName, problem: string, ids: Violation["ids"]) => void

/** Money Medusa still counts on a payment: what it took (or may still take) less what it refunded. */
const heldByPayment = (p: MedusaPaymentRecord) => (p.canceled ? 0n : dirhams(p.amount) - sum(p.refunds))

/** Medusa's and PayLater's records compared money by money (issue 42, item 5): 6, 7 and 8. */
function checkTwoRecords(records: CampaignRecords, add: Add): void {
  const paylaterById = new Map(records.paylater.map((o) => [o.order_id, o]))
  const paidAt = (id: string | null) => {
    const o = id ? paylaterById.get(id) : undefined
    return o && o.status === PAID ? o : undefined
  }
  const refundedInFull = (id: string | null) => {
    const o = paidAt(id)
    return !!o && sum(o.refunds) >= dirhams(o.amount)
  }
  const listed = new Set(records.attention.filter((a) => a.status === "open" && a.paylater_order_id).map((a) => a.paylater_order_id!))
  // A refund whose outcome nobody knows yet may be in one record only (invariant 4 judges it).
  const unsettled = new Set(
    records.refundAttempts.filter((a) => a.status === "pending" || a.status === "unknown").map((a) => a.paylater_order_id)
  )

  // 6. An order never holds a payment whose money PayLater gave back in full, unless a person has it
  // on the list (a refund whose answer was lost, paid out at PayLater: refund_outcome_unknown).
  for (const p of records.payments) {
    if (!p.order_id || !refundedInFull(p.paylater_order_id) || heldByPayment(p) <= 0n || listed.has(p.paylater_order_id!)) continue
    add(
      "refunded_not_held",
      `Medusa order ${p.order_id} holds ${formatDirhams(heldByPayment(p))} QAR on payment ${p.id}, but PayLater refunded ${formatDirhams(sum(paidAt(p.paylater_order_id)!.refunds))} QAR of ${p.paylater_order_id} (all of it)`,
      { order_id: p.order_id, payment_id: p.id, paylater_order_id: p.paylater_order_id }
    )
  }

  // 7. What Medusa counts as an order's PayLater money (captured, less its refunds) is what PayLater
  // holds for the PayLater orders of its payments (paid, less PayLater's refunds), unless a person
  // has it on the list or a refund's outcome is still unknown.
  for (const order of records.orders) {
    const payments = records.payments.filter((p) => p.order_id === order.id && p.paylater_order_id)
    const paylaterIds = uniq(payments.map((p) => p.paylater_order_id!))
    if (!paylaterIds.length || paylaterIds.some((id) => listed.has(id) || unsettled.has(id))) continue
    const counted = payments.filter((p) => p.captured).reduce((total, p) => total + heldByPayment(p), 0n)
    const holds = paylaterIds.reduce((total, id) => {
      const o = paidAt(id)
      return o ? total + dirhams(o.amount) - sum(o.refunds) : total
    }, 0n)
    if (counted !== holds) {
      add(
        "order_money_matches",
        `Medusa order ${order.id} counts ${formatDirhams(counted)} QAR paid with PayLater, but PayLater holds ${formatDirhams(holds)} QAR for it (${paylaterIds.join(", ")}, less refunds)`,
        { order_id: order.id, payment_ids: payments.map((p) => p.id), paylater_order_ids: paylaterIds }
      )
    }
  }

  // 8. After a full refund no completion can take the money: its session is neither authorized nor
  // pending with a live payment (or none yet) while its cart can still become an order; and no
  // Medusa payment of it stays live and uncaptured (staff could capture it on the order page).
  for (const s of records.sessions) {
    const usable = (s.status === "authorized" || s.status === "pending") && !s.payment_canceled && !s.cart_completed
    if (!usable || !refundedInFull(s.paylater_order_id)) continue
    add(
      "refunded_unusable",
      `payment session ${s.id} is ${s.status}${s.payment_id ? ` with live payment ${s.payment_id}` : ""} on cart ${s.cart_id ?? "?"}, which can still become an order, although PayLater refunded ${s.paylater_order_id} in full`,
      { session_id: s.id, payment_id: s.payment_id, cart_id: s.cart_id, paylater_order_id: s.paylater_order_id }
    )
  }
  for (const p of records.payments) {
    if (p.canceled || p.captured || !refundedInFull(p.paylater_order_id)) continue
    add(
      "refunded_unusable",
      `Medusa payment ${p.id} is authorized and live${p.order_id ? ` on order ${p.order_id}` : ""}, so it can still be captured, although PayLater refunded ${p.paylater_order_id} in full`,
      { payment_id: p.id, order_id: p.order_id, cart_id: p.cart_id, paylater_order_id: p.paylater_order_id }
    )
  }
}

function formatDirhams(value: bigint): string {
  const sign = value < 0n ? "-" : ""
  const abs = value < 0n ? -value : value
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`
}

/** One line per violation, with the ids and the seed that reproduces the campaign. */
export function formatViolation(v: Violation): string {
  const ids = Object.entries(v.ids)
    .filter(([, value]) => value !== null && !(Array.isArray(value) && !value.length))
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(",") : value}`)
    .join(" ")
  return `VIOLATION [${v.invariant}] ${v.problem} (${ids}; seed ${v.seed})`
}

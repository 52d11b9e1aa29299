import { checkInvariants, type CampaignRecords, type InvariantName } from "./invariants"

/**
 * The checker checked on the campaign's own records: for each invariant, one record of the real run
 * is broken in a copy (a paid order's payment detached, a refund sent twice, ...) and the checker
 * must report exactly that. A check that passes on real records but could not have failed on them
 * (it never matched a real id) is a defect the unit tests alone would not show.
 */
export type ProbeOutcome = "caught" | "missed" | "no data"

type Probe = (r: CampaignRecords) => { records: CampaignRecords; id: string } | null

const clone = (r: CampaignRecords): CampaignRecords => JSON.parse(JSON.stringify(r))

const PROBES: Record<InvariantName, Probe> = {
  // A payment PayLater holds, made silent: no order holds it, nothing lists it.
  paid_is_held: (r) => {
    const held = r.paylater.find((o) => o.status === 2 && r.payments.some((p) => p.paylater_order_id === o.order_id && p.order_id && !p.canceled))
    if (!held) return null
    const records = clone(r)
    for (const p of records.payments) if (p.paylater_order_id === held.order_id) p.order_id = null
    const o = records.paylater.find((x) => x.order_id === held.order_id)!
    o.refunds = []
    records.attention = records.attention.filter((a) => a.paylater_order_id !== held.order_id)
    return { records, id: held.order_id }
  },
  // An order whose PayLater payment was never paid.
  order_is_paid: (r) => {
    const order = r.orders.find((o) => r.payments.some((p) => p.order_id === o.id && !p.canceled))
    if (!order) return null
    const records = clone(r)
    const ids = new Set(records.payments.filter((p) => p.order_id === order.id).map((p) => p.paylater_order_id))
    for (const o of records.paylater) if (ids.has(o.order_id)) o.status = 1
    return { records, id: order.id }
  },
  // A second payment of a placed cart, neither refunded nor listed.
  captured_once: (r) => {
    const row = r.attempts.find((a) => a.cart_id && r.paylater.some((o) => o.order_id === a.paylater_order_id && o.status === 2))
    if (!row) return null
    const records = clone(r)
    const paid = records.paylater.find((o) => o.order_id === row.paylater_order_id)!
    const extra = `${row.paylater_order_id}-probe`
    paid.refunds = []
    records.attention = records.attention.filter((a) => a.paylater_order_id !== row.paylater_order_id)
    records.paylater.push({ order_id: extra, status: 2, amount: paid.amount, refunds: [] })
    records.attempts.push({ ...row, paylater_order_id: extra })
    return { records, id: row.cart_id! }
  },
  // A refund PayLater paid twice.
  refunds_sound: (r) => {
    const refunded = r.paylater.find((o) => o.refunds.length)
    if (!refunded) return null
    const records = clone(r)
    const o = records.paylater.find((x) => x.order_id === refunded.order_id)!
    o.refunds.push({ ...o.refunds[0] })
    return { records, id: refunded.order_id }
  },
  // An open row nobody asked about since long before the check.
  rows_asked: (r) => {
    const row = r.attempts[0]
    if (!row) return null
    const records = clone(r)
    Object.assign(records.attempts[0], { state: "open", next_ask_at: new Date(r.now - 2 * r.askSlackMs).toISOString() })
    return { records, id: row.paylater_order_id }
  },
  // An order's payment PayLater then refunded in full, Medusa recording none of it.
  refunded_not_held: (r) => {
    const held = r.payments.find((p) => p.order_id && !p.canceled && r.paylater.some((o) => o.order_id === p.paylater_order_id && o.status === 2))
    if (!held) return null
    const records = clone(r)
    const o = records.paylater.find((x) => x.order_id === held.paylater_order_id)!
    o.refunds = [{ amount: o.amount }]
    records.payments.find((p) => p.id === held.id)!.refunds = []
    // Nobody told either (a crash point's note on this payment would excuse it).
    records.attention = records.attention.filter((a) => a.paylater_order_id !== held.paylater_order_id)
    return { records, id: held.order_id! }
  },
  // One dirham refunded at PayLater on an order's payment that Medusa never recorded, nothing listed.
  order_money_matches: (r) => {
    // A payment Medusa counts (captured) for money PayLater took (paid): a cent refunded at PayLater
    // must then show on its order.
    const held = r.payments.find(
      (p) =>
        p.order_id &&
        p.captured &&
        p.paylater_order_id &&
        r.orders.some((o) => o.id === p.order_id) &&
        r.paylater.some((o) => o.order_id === p.paylater_order_id && o.status === 2)
    )
    if (!held) return null
    const records = clone(r)
    records.paylater.find((x) => x.order_id === held.paylater_order_id)!.refunds.push({ amount: "0.01" })
    // The checker leaves an order alone while any of its PayLater payments is on the list or has a
    // refund of unknown outcome (an extra payment of a double submit, say): the probe takes those
    // away for every payment of the order, not only the one it breaks.
    const ofOrder = new Set(records.payments.filter((p) => p.order_id === held.order_id && p.paylater_order_id).map((p) => p.paylater_order_id!))
    records.attention = records.attention.filter((a) => !a.paylater_order_id || !ofOrder.has(a.paylater_order_id))
    records.refundAttempts = records.refundAttempts.filter((a) => !ofOrder.has(a.paylater_order_id))
    return { records, id: held.order_id! }
  },
  // A session of a cart that is no order, authorized with a live payment after PayLater refunded its money.
  refunded_unusable: (r) => {
    const session = r.sessions.find((s) => r.paylater.some((o) => o.order_id === s.paylater_order_id))
    if (!session) return null
    const records = clone(r)
    Object.assign(records.sessions.find((s) => s.id === session.id)!, { status: "authorized", cart_completed: false, payment_canceled: false })
    const o = records.paylater.find((x) => x.order_id === session.paylater_order_id)!
    Object.assign(o, { status: 2, refunds: [{ amount: o.amount }] })
    return { records, id: session.id }
  },
}

/** Each invariant's probe on the real records: caught (the checker named the broken id), missed, or no data to break. */
export function probeChecker(records: CampaignRecords): Record<InvariantName, ProbeOutcome> {
  const out = {} as Record<InvariantName, ProbeOutcome>
  for (const [name, probe] of Object.entries(PROBES) as Array<[InvariantName, Probe]>) {
    const broken = probe(records)
    if (!broken) {
      out[name] = "no data"
      continue
    }
    const found = checkInvariants(broken.records).filter((v) => v.invariant === name)
    out[name] = found.some((v) => JSON.stringify(v.ids).includes(broken.id)) ? "caught" : "missed"
  }
  return out
}

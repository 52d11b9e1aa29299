// What the invariant checker (src/faults/invariants.ts) compares, read from OUTSIDE the server:
// PayLater's records (the sandbox's own order book, in this process), Medusa's records (its tables:
// orders, payments, refunds) and the plugin's ledger tables. Only what the campaign created (rows
// since it started): the database may hold earlier runs.
const { Client } = require("pg")
const { registerTs } = require("../ts")

registerTs()
// The recovery's own names for what it has done with a refund (src/providers, src/reconciliation).
const { BOOKING_METADATA_KEY } = require("../../../src/providers/paylater/refund-guard.ts")
const { unsentRefundKeyOf } = require("../../../src/reconciliation/unsent-refunds.ts")

// The campaign's own connections carry this name: dropping "every connection" spares them (they are
// the observer, not the system under test).
const APPLICATION_NAME = "paylater-fault-campaign"

async function query(databaseUrl, fn) {
  const client = new Client({ connectionString: databaseUrl, application_name: APPLICATION_NAME })
  // A dropped connection must fail this read, not the whole campaign (an unhandled 'error' event).
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

const iso = (d) => (d ? new Date(d).toISOString() : null)

/**
 * @param {{ databaseUrl: string, sandbox: any, since: Date, seed: string, askSlackMs: number }} opts
 * @returns {Promise<import("../../../src/faults/invariants").CampaignRecords>}
 */
async function readRecords({ databaseUrl, sandbox, since, seed, askSlackMs }) {
  const paylater = sandbox.orders().map((o) => ({
    order_id: o.orderId,
    status: o.status,
    amount: o.amount,
    refunds: o.refunds.map((r) => ({ amount: r.amount })),
  }))
  return query(databaseUrl, async (db) => {
    const attempts = (
      await db.query(
        `select paylater_order_id, state, cart_id, payment_id, expires_at, last_status_at, next_ask_at, created_at
           from paylater_attempt where deleted_at is null and created_at >= $1`,
        [since]
      )
    ).rows
    const orderOfPayment = new Map(attempts.filter((a) => a.payment_id).map((a) => [a.payment_id, a.paylater_order_id]))
    const payments = (
      await db.query(
        `select p.id, p.payment_session_id, p.data->>'paylater_order_id' as data_order_id, round(p.amount, 2)::text as amount,
                p.canceled_at, p.captured_at, opc.order_id, cpc.cart_id
           from payment p
           left join order_payment_collection opc on opc.payment_collection_id = p.payment_collection_id and opc.deleted_at is null
           left join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id and cpc.deleted_at is null
          where p.provider_id like 'pp_paylater%' and p.deleted_at is null and p.created_at >= $1`,
        [since]
      )
    ).rows
    // Medusa's sessions of the campaign's carts, with what a completion of the cart could take: the
    // session's live payment (the attempt it names is where its money is), and whether the cart is an order.
    const sessions = (
      await db.query(
        `select s.id, s.status, s.data->>'paylater_order_id' as data_order_id, cpc.cart_id, c.completed_at,
                p.id as payment_id, p.canceled_at as payment_canceled_at, p.data->>'paylater_order_id' as payment_order_id
           from payment_session s
           left join payment p on p.payment_session_id = s.id and p.deleted_at is null
           left join cart_payment_collection cpc on cpc.payment_collection_id = s.payment_collection_id and cpc.deleted_at is null
           left join cart c on c.id = cpc.cart_id
          where s.provider_id like 'pp_paylater%' and s.deleted_at is null and s.created_at >= $1`,
        [since]
      )
    ).rows
    const refunds = (
      await db.query(
        `select r.id, r.payment_id, round(r.amount, 2)::text as amount from refund r
           join payment p on p.id = r.payment_id
          where r.deleted_at is null and p.provider_id like 'pp_paylater%' and p.created_at >= $1`,
        [since]
      )
    ).rows
    const orders = (
      await db.query(
        `select o.id, opc.payment_collection_id, cpc.cart_id from "order" o
           join order_payment_collection opc on opc.order_id = o.id and opc.deleted_at is null
           left join cart_payment_collection cpc on cpc.payment_collection_id = opc.payment_collection_id and cpc.deleted_at is null
          where o.deleted_at is null
            and exists (select 1 from payment_session s where s.payment_collection_id = opc.payment_collection_id
                          and s.provider_id like 'pp_paylater%' and s.created_at >= $1)`,
        [since]
      )
    ).rows
    const refundAttempts = (
      await db.query(
        `select id, paylater_order_id, round(amount, 2)::text as amount, status from paylater_refund_attempt
          where deleted_at is null and created_at >= $1`,
        [since]
      )
    ).rows
    const attention = (
      await db.query(
        `select id, kind, status, paylater_order_id, detail from paylater_attention where deleted_at is null and created_at >= $1`,
        [since]
      )
    ).rows
    // A session's attempts are named after it ("<session>", then "<session>-2", ...): its latest is its own money.
    const ownAttemptOf = (sessionId) =>
      attempts
        .filter((a) => a.paylater_order_id === sessionId || a.paylater_order_id.startsWith(`${sessionId}-`))
        .sort((x, y) => new Date(y.created_at).getTime() - new Date(x.created_at).getTime())[0]?.paylater_order_id ?? sessionId
    return {
      seed,
      now: Date.now(),
      askSlackMs,
      paylater,
      payments: payments.map((p) => ({
        id: p.id,
        // Where the provider sends its refunds: the attempt its authorization named (the payment's data).
        paylater_order_id: p.data_order_id ?? orderOfPayment.get(p.id) ?? p.payment_session_id ?? null,
        order_id: p.order_id,
        cart_id: p.cart_id,
        amount: p.amount,
        canceled: !!p.canceled_at,
        captured: !!p.captured_at,
        refunds: refunds.filter((r) => r.payment_id === p.id).map((r) => ({ id: r.id, amount: r.amount })),
      })),
      sessions: sessions.map((s) => ({
        id: s.id,
        status: s.status,
        // Never the session's data: Medusa copies it into the new session its rollback of a failed
        // completion makes, where it names the old session's attempt (whose money this session cannot
        // take: the provider authorizes a session from its own attempts, in the ledger).
        paylater_order_id: s.payment_order_id ?? orderOfPayment.get(s.payment_id) ?? ownAttemptOf(s.id),
        cart_id: s.cart_id,
        cart_completed: !!s.completed_at,
        payment_id: s.payment_id,
        payment_canceled: !!s.payment_canceled_at,
      })),
      orders: orders.map((o) => ({ id: o.id, cart_id: o.cart_id })),
      attempts: attempts.map((a) => ({
        paylater_order_id: a.paylater_order_id,
        state: a.state,
        cart_id: a.cart_id,
        expires_at: iso(a.expires_at),
        last_status_at: iso(a.last_status_at),
        next_ask_at: iso(a.next_ask_at),
        created_at: iso(a.created_at),
      })),
      refundAttempts,
      attention: attention.map((a) => ({
        id: a.id,
        kind: a.kind,
        status: a.status,
        paylater_order_id: a.paylater_order_id,
        medusa_refund_id: a.detail?.medusa_refund_id ?? null,
      })),
    }
  })
}

/**
 * Shortens the automatic refund's wait for the campaign: every plan still waiting for PayLater's
 * refund window (11 minutes of real time) becomes due now. The sandbox's clock is moved past the
 * window by the caller, so PayLater accepts the refund.
 */
async function makeAutoRefundsDue(databaseUrl, since) {
  return query(databaseUrl, async (db) => {
    const { rowCount } = await db.query(
      `update paylater_attention
          set refund_next_at = now() - interval '1 second',
              refund_due_at = now() - interval '1 second'
        where kind = 'paid_without_order' and status = 'open' and deleted_at is null and created_at >= $1
          and refund_state = 'scheduled'
          and refund_next_at > now()`,
      [since]
    )
    return rowCount
  })
}

/**
 * Orders of the campaign's PayLater carts with no live payment on the order's collections or the
 * cart's: what a completion killed before Medusa authorized any payment leaves. Recovery undoes each
 * past the owner decision's bound when PayLater holds no money for the cart
 * (src/reconciliation/leftover-orders.ts), or settlement gives it the money PayLater holds. Chosen by
 * the attempts' times: makeOwnerDecisionsDue moves the orders' own creation back.
 */
const MONEYLESS_ORDERS = `select o.id, o.created_at from "order" o
    join order_cart oc on oc.order_id = o.id and oc.deleted_at is null
   where o.deleted_at is null and o.status <> 'canceled'
     and exists (select 1 from paylater_attempt a where a.cart_id = oc.cart_id and a.deleted_at is null and a.created_at >= $1)
     and not exists (select 1 from order_payment_collection opc join payment p on p.payment_collection_id = opc.payment_collection_id
                      where opc.order_id = o.id and opc.deleted_at is null and p.deleted_at is null and p.canceled_at is null)
     and not exists (select 1 from cart_payment_collection cpc join payment p on p.payment_collection_id = cpc.payment_collection_id
                      where cpc.cart_id = oc.cart_id and cpc.deleted_at is null and p.deleted_at is null and p.canceled_at is null)`

/**
 * Shortens the owner decision's wait for the campaign, as makeAutoRefundsDue does the refund's: a
 * paid row whose cart became an order nobody recorded as its own (a completion killed part-way) is
 * decided once OWNER_SETTLES_WITHIN_MS has passed since the order (whose-money.ts) and since its
 * session's authorization (the recovery job's selection, reconciliation/select.ts). Called once the
 * faults have stopped and no completion runs: both times are moved back past the bound, which is
 * what waiting would do. The checker's records are chosen by times this leaves alone (an order by
 * its PayLater sessions' creation, never its own created_at, which this moves before the campaign).
 */
async function makeOwnerDecisionsDue(databaseUrl, since, boundMs) {
  return query(databaseUrl, async (db) => {
    const past = `now() - (${Math.round(boundMs) + 1000} * interval '1 millisecond')`
    const unowned = `select a.cart_id, a.session_id from paylater_attempt a
        where a.deleted_at is null and a.created_at >= $1 and a.state = 'paid' and a.order_id is null`
    const orders = await db.query(
      `update "order" o set created_at = ${past}
         from order_cart oc
        where oc.order_id = o.id and oc.deleted_at is null and o.created_at > ${past}
          and oc.cart_id in (select cart_id from (${unowned}) u)`,
      [since]
    )
    const sessions = await db.query(
      `update payment_session s set authorized_at = ${past}
        where s.status = 'authorized' and coalesce(s.authorized_at, s.created_at) > ${past}
          and s.id in (select session_id from (${unowned}) u)`,
      [since]
    )
    // Orders with no money behind them: decided by recovery past the same bound.
    const moneyless = await db.query(`update "order" o set created_at = ${past} where o.id in (select id from (${MONEYLESS_ORDERS}) m) and o.created_at > ${past}`, [since])
    return orders.rowCount + sessions.rowCount + moneyless.rowCount
  })
}

/**
 * What the final wait waits for. `paidOpen`: ledger rows still open although PayLater holds them as
 * paid (their notification was lost), with the latest time one of them is next asked: reconciliation
 * finds each at its own next question (attempt-state.ts nextAskAt), and the wait gives it that time.
 */
async function pendingWork(databaseUrl, since, after, askSlackMs, paidAtPayLater = []) {
  return query(databaseUrl, async (db) => {
    const paidOpen = paidAtPayLater.length
      ? (
          await db.query(
            `select count(*)::int as n, max(coalesce(next_ask_at, created_at)) as last_ask from paylater_attempt
              where deleted_at is null and created_at >= $1 and state in ('starting', 'open') and paylater_order_id = any($2)`,
            [since, paidAtPayLater]
          )
        ).rows[0]
      : { n: 0, last_ask: null }
    const due = await db.query(
      `select count(*)::int as n from paylater_attempt
        where deleted_at is null and created_at >= $1 and state in ('starting', 'open')
          and coalesce(next_ask_at, created_at) < now() - ($2::int * interval '1 millisecond')`,
      [since, Math.round(askSlackMs / 2)]
    )
    const refunds = await db.query(
      `select count(*)::int as n from paylater_attention
        where kind = 'paid_without_order' and status = 'open' and deleted_at is null and created_at >= $1
          and refund_due_at <= now()`,
      [since]
    )
    const runs = await db.query(`select count(*)::int as n from paylater_reconcile_run where started_at > $1 and error is null`, [after])
    // Refund attempts a killed process left pending: the recovery job lists them once they cannot be in flight.
    const pendingRefunds = await db.query(
      `select count(*)::int as n from paylater_refund_attempt where status = 'pending' and deleted_at is null and created_at >= $1`,
      [since]
    )
    // Medusa refund records of PayLater payments that no refund attempt names and nobody listed yet: a
    // process killed between Medusa's write and the refund guard's. Recovery lists each once it is past
    // the stale bound (src/reconciliation/unsent-refunds.ts); judged before, it reads as refunds_sound.
    const unsentRefunds = (
      await db.query(
        `select count(*)::int as n, max(r.created_at) as newest
           from refund r join payment p on p.id = r.payment_id
          where r.deleted_at is null and r.created_at >= $1 and p.provider_id like 'pp_paylater%'
            and coalesce(r.metadata ->> $2, '') = ''
            and not exists (select 1 from paylater_refund_attempt a where a.medusa_refund_id = r.id and a.status <> 'failed' and a.deleted_at is null)
            and not exists (select 1 from paylater_attention t where t.deleted_at is null and t.dedupe_key = $3 || r.id)`,
        [since, BOOKING_METADATA_KEY, unsentRefundKeyOf("")]
      )
    ).rows[0]
    // Paid rows no order was recorded for and nobody listed, split by whether their cart is an order:
    // - unowned (it is: a completion that died part-way, or no signal since): the job decides each
    //   once the owner decision's bound has passed, counted from the later of the payment and the order;
    // - unplaced (not yet: a completion under way, since the ledger says paid before Medusa's order
    //   exists, or one a kill cut short, tried again at completion_next_at). Judged mid-flight they
    //   would read as paid_is_held violations.
    const paidUnrecorded = (
      await db.query(
        `select count(o.id)::int as unowned,
                max(greatest(coalesce(a.paid_at, a.updated_at), o.created_at)) filter (where o.id is not null) as last_paid,
                (count(*) - count(o.id))::int as unplaced,
                max(coalesce(a.completion_next_at, a.updated_at)) filter (where o.id is null) as next_try
           from paylater_attempt a
           left join order_cart oc on oc.cart_id = a.cart_id and oc.deleted_at is null
           left join "order" o on o.id = oc.order_id
          where a.deleted_at is null and a.created_at >= $1 and a.state = 'paid' and a.order_id is null and a.superseded_by is null
            and not exists (select 1 from paylater_attention t where t.deleted_at is null and t.dedupe_key = 'paid_without_order:' || a.paylater_order_id)`,
        [since]
      )
    ).rows[0]
    const moneyless = (await db.query(`select count(*)::int as n, max(created_at) as newest from (${MONEYLESS_ORDERS}) m`, [since])).rows[0]
    return {
      moneyless: moneyless.n,
      moneylessNewest: moneyless.newest ? new Date(moneyless.newest).getTime() : null,
      unplaced: paidUnrecorded.unplaced,
      unplacedNextTry: paidUnrecorded.next_try ? new Date(paidUnrecorded.next_try).getTime() : null,
      unowned: paidUnrecorded.unowned,
      unownedLastPaid: paidUnrecorded.last_paid ? new Date(paidUnrecorded.last_paid).getTime() : null,
      dueRows: due.rows[0].n,
      dueRefunds: refunds.rows[0].n,
      pendingRefunds: pendingRefunds.rows[0].n,
      unsentRefunds: unsentRefunds.n,
      unsentRefundsNewest: unsentRefunds.newest ? new Date(unsentRefunds.newest).getTime() : null,
      runs: runs.rows[0].n,
      paidOpen: paidOpen.n,
      paidOpenNextAsk: paidOpen.last_ask ? new Date(paidOpen.last_ask).getTime() : null,
    }
  })
}

/** Paid Medusa payments of the campaign's orders, for the admin's refunds. */
async function refundablePayments(databaseUrl, since) {
  return query(databaseUrl, async (db) => {
    const { rows } = await db.query(
      `select p.id, round(p.amount, 2)::text as amount,
              coalesce((select sum(r.amount) from refund r where r.payment_id = p.id and r.deleted_at is null), 0)::text as refunded
         from payment p join order_payment_collection opc on opc.payment_collection_id = p.payment_collection_id
        where p.provider_id like 'pp_paylater%' and p.deleted_at is null and p.canceled_at is null and p.captured_at is not null
          and p.created_at >= $1
          -- the refund guard refuses a payment whose earlier refund has an unknown outcome
          and not exists (select 1 from paylater_refund_attempt ra where ra.payment_id = p.id and ra.status in ('pending', 'unknown'))
        order by p.created_at`,
      [since]
    )
    return rows
  })
}

/** Open items on Settings → PayLater that a person could refund from the page. */
async function openAttention(databaseUrl, since) {
  return query(databaseUrl, async (db) => {
    const { rows } = await db.query(
      `select id, kind, payment_id from paylater_attention
        where status = 'open' and deleted_at is null and created_at >= $1 and kind = 'paid_without_order' and payment_id is not null`,
      [since]
    )
    return rows
  })
}

/**
 * Every connection to the campaign's database is dropped (pg_terminate_backend), as a PostgreSQL
 * restart would drop them, without restarting a server other people use.
 */
async function dropConnections(databaseUrl) {
  const name = new URL(databaseUrl).pathname.slice(1)
  return query(databaseUrl, async (db) => {
    const { rows } = await db.query(
      `select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = $1 and pid <> pg_backend_pid() and application_name <> $2`,
      [name, APPLICATION_NAME]
    )
    return rows[0].n
  })
}

module.exports = { readRecords, makeAutoRefundsDue, makeOwnerDecisionsDue, pendingWork, refundablePayments, openAttention, dropConnections }

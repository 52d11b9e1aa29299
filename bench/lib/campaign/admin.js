// The fault campaign's admin: logged in like the dashboard, refunding partially, fully and from
// Settings → PayLater.
const records = require("./records")
const { registerTs } = require("../ts")

registerTs()
const { dirhams } = require("../../../src/faults/invariants.ts")

// PayLater refuses a refund sooner than 10 minutes after the payment: the sandbox's clock jumps this far.
const REFUND_WINDOW_MS = 11 * 60_000

/** An admin user (Medusa's CLI) and a bearer token (its login route). */
async function adminSession(stack) {
  const email = `campaign-${Date.now()}@example.com`
  const password = "campaign-admin-password"
  await stack.medusa.createAdminUser({ email, password })
  let token = null
  const login = async () => {
    const res = await fetch(`${stack.backend}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    })
    token = (await res.json()).token
  }
  await login()
  return {
    async post(url, body) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${stack.backend}${url}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(body ?? {}),
          signal: AbortSignal.timeout(60_000),
        })
        if (res.status === 401) {
          await login()
          continue
        }
        return { status: res.status, body: await res.json().catch(() => ({})) }
      }
      return { status: 401, body: {} }
    },
  }
}

/**
 * The admin's refunds: PayLater's refund window opened (sandbox clock), then a partial or full
 * refund of a paid order's payment, a refund from Settings → PayLater, and the automatic refunds due.
 */
async function refundRound(ctx, { force = false } = {}) {
  const { sandbox, databaseUrl, since, admin, adminRng, figures } = ctx
  sandbox.advanceClock(REFUND_WINDOW_MS)
  const payments = (await records.refundablePayments(databaseUrl, since)).filter((p) => dirhams(p.refunded) < dirhams(p.amount))
  if (payments.length && (force || adminRng.chance(0.7))) {
    const p = adminRng.pick(payments)
    const remaining = dirhams(p.amount) - dirhams(p.refunded)
    const full = adminRng.chance(0.4) || remaining <= 5000n
    const amount = full ? remaining : 5000n
    // Medusa's route takes a JSON number: from the exact two-decimal text, never computed in floats.
    const res = await admin.post(`/admin/payments/${p.id}/refund`, { amount: Number(`${amount / 100n}.${String(amount % 100n).padStart(2, "0")}`) })
    if (res.status < 300) figures.admin_refunds[full ? "full" : "partial"]++
    else figures.admin_refunds.refused++
  }
  const items = await records.openAttention(databaseUrl, since)
  if (items.length && (force || adminRng.chance(0.5))) {
    const item = adminRng.pick(items)
    const res = await admin.post(`/admin/paylater/attention/${item.id}/refund`, {})
    if (res.status < 300) figures.admin_refunds.from_settings++
    else figures.admin_refunds.refused++
  }
  await records.makeAutoRefundsDue(databaseUrl, since)
}

module.exports = { adminSession, refundRound, REFUND_WINDOW_MS }

/**
 * Medusa's own checkout buys no extra PayLater status calls (issue 45): `POST /store/carts/:id/complete`
 * runs Medusa's authorization, which asked PayLater every time (thirty completions, thirty calls).
 * The provider now takes the session's status-call slot, the one the return and the waiting screen
 * take: completions of a cart whose link is open and unpaid make at most one status call per slot
 * interval, counted at the sandbox; none places an order; and once PayLater says paid the shopper's
 * return still places it. The completions come in waves of four at once (Medusa's cart lock runs
 * each wave one at a time) until one and a half slot intervals have passed, however fast the machine:
 * the slot must open again after its interval, once. The slot's rule itself (thirty completions in one
 * interval, one call) is a unit test (src/providers/paylater/__tests__/status-slot.suite.ts).
 */
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { startCheckout } from "../../helpers/store-client"
import { STATUS_CALL_INTERVAL_SECONDS } from "../../../src/limits/status-interval"
import { ledgerForCart } from "../paylater-link/ledger"

const WAVE = 4
const INTERVAL_MS = STATUS_CALL_INTERVAL_SECONDS * 1000

function fail(message: string): never {
  throw new Error(message)
}

export function statusSlot({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })

  /** Status calls PayLater answered about the session's attempts (a 401 is the sandbox refusing an old token). */
  const statusCallsAbout = (sessionId: string) =>
    paylater()
      .requests()
      .filter((r) => r.endpoint === "status" && r.status !== 401 && String(r.query.order_id ?? "").startsWith(sessionId))

  /** Every status call about the session at least one slot interval after the one before, and no more than the time allows. */
  function expectOnePerInterval(sessionId: string, seconds: number) {
    const calls = statusCallsAbout(sessionId)
    // Not vacuous: the completions did reach the provider's authorization and asked.
    expect(calls.length).toBeGreaterThanOrEqual(1)
    expect(calls.length).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / INTERVAL_MS) + 1)
    const gaps = calls.slice(1).map((call, i) => call.time - calls[i].time)
    // A little slack for the store's own clock (the slot's window is counted by the limit store).
    expect(gaps.filter((gap) => gap < INTERVAL_MS - 250)).toEqual([])
    return calls.length
  }

  it("completions for longer than a slot interval, then the shopper pays: one call per interval, and the return still places the order", async () => {
    const { cart, session } = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const sessionId = session.ok ? session.data.session!.id : fail(`no PayLater session: ${JSON.stringify(session)}`)
    const t0 = Date.now()
    const answers = []
    while (Date.now() - t0 < INTERVAL_MS * 1.5) {
      answers.push(...(await Promise.all(Array.from({ length: WAVE }, () => store.completeCart(cart.id)))))
    }
    const seconds = (Date.now() - t0) / 1000
    expect(answers.filter((a) => a.type === "order")).toEqual([])
    const calls = expectOnePerInterval(sessionId, seconds)
    // Not vacuous: completions went on past the first call's interval, and the slot let one more ask.
    expect(calls).toBeGreaterThanOrEqual(2)
    process.stdout.write(`[status-slot] ${answers.length} completions in waves of ${WAVE} in ${seconds.toFixed(1)} s: ${calls} status call(s)\n`)

    // The shopper pays; the return waits for the next slot if it must, and places the order.
    await paylater().approveLink(sessionId)
    const back = await api.get(`/paylater/return/${sessionId}?outcome=success`, { maxRedirects: 0, validateStatus: () => true })
    expect(back.status).toBe(303)
    expect(await ledgerForCart(getContainer(), cart.id)).toMatchObject({ orders: 1, captures: 1 })
  })
}

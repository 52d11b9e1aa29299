/**
 * Completion and the automatic refund exclude each other (issue 17): a paid cart that could not
 * become an order is listed for an automatic refund; then its stock comes back, and every road
 * that could place its order (the shopper's return, a waiting screen's poll, an admin check, the
 * storefront completing the cart itself) runs at the same moment as the refund job. Every round
 * (three in `npm test`, twenty in `npm run test:races`): never an order whose PayLater payment was
 * refunded in full. The exclusion itself (the money's lock, the refund's write-ahead) has its unit
 * tests; these rounds prove the roads take it.
 */
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { runPaidWithoutOrderRefunds } from "../../../src/paid-without-order/auto-refund"
import { settlePayLaterSession } from "../../../src/settlement/settle"
import { createAdminUser, type AdminAuth } from "../../helpers/store-client"
import { eventually, ledgerForCart } from "../paylater-link/ledger"
import { payThenSellOut } from "../paylater-paid-without-order/sold-out"
import { createStockedVariant, type StockedVariant } from "../paylater-paid-without-order/stock"

const MINUTE = 60_000
/** Races in one test: `npm test` runs 3; `npm run test:races` runs 20 (COMPLETION_RACE_ROUNDS), the long run after a change to completion. */
const ROUNDS = Number(process.env.COMPLETION_RACE_ROUNDS ?? 3)

export function completionRace({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  let admin: AdminAuth
  let stocked: StockedVariant
  const keep = { validateStatus: () => true }

  beforeAll(async () => {
    stocked = await createStockedVariant(getContainer(), seed, 350)
    admin = await createAdminUser(api, getContainer())
  })

  // No webhook (the sandbox helper points it at the app before each test): the shopper's return
  // settles each payment, after the item sold out.
  beforeEach(() => paylater().setWebhookUrl(null))

  const listed = (sessionId: string) =>
    eventually(
      async () =>
        ((await api.get(`/admin/paylater/attention?status=all`, { ...admin, ...keep })).data.attention as Array<Record<string, any>>).filter(
          (i) => i.kind === "paid_without_order" && i.session_id === sessionId
        ),
      (items) => items.length > 0
    )

  it(`never places an order whose payment was refunded in full (${ROUNDS} races)`, async () => {
    const outcomes: Array<{ round: number; orders: number; refunded: boolean }> = []
    for (let round = 1; round <= ROUNDS; round++) {
      await stocked.setStock(1)
      const { sessionId, cartId, returnAgain } = await payThenSellOut(api, store, seed, stocked)
      await listed(sessionId)
      expect(await ledgerForCart(getContainer(), cartId)).toMatchObject({ orders: 0 })
      // The item is back in stock, and PayLater's refund window is open: both roads are possible.
      await stocked.setStock(1)
      paylater().advanceClock(12 * MINUTE)
      const container = getContainer()
      await Promise.allSettled([
        runPaidWithoutOrderRefunds(container, { now: new Date(Date.now() + 12 * MINUTE) }),
        returnAgain(),
        store.get(`/store/paylater/payment-sessions/${sessionId}`),
        settlePayLaterSession(container, { session_id: sessionId, signal: "admin" }),
        store.post(`/store/carts/${cartId}/complete`),
      ])
      const ledger = await ledgerForCart(container, cartId)
      const refunds = paylater().order(sessionId)?.refunds ?? []
      const refunded = refunds.some((r: { full?: boolean }) => r.full)
      outcomes.push({ round, orders: ledger.orders, refunded })
      // At most one refund was ever sent for it.
      expect(refunds.length).toBeLessThanOrEqual(1)
    }
    // Every round ended one way or the other, never both.
    expect(outcomes.filter((o) => o.orders > 0 && o.refunded)).toEqual([])
    expect(outcomes).toHaveLength(ROUNDS)
  }, 20 * 60_000)
}

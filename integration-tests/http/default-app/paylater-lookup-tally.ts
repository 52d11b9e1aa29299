/**
 * A Request to Pay the store route refuses at the shopper look-up, before any payment session exists,
 * writes no attempt; the funnel counts it from the route's hourly tally (paylater_lookup_refusal), which
 * keeps the hour, method and code only.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { PAYLATER_RTP_PROVIDER_ID } from "../../helpers/seed"
import { useSeededStore } from "../../helpers/seeded-store"
import { createAdminUser, type AdminAuth } from "../../helpers/store-client"

export function lookupTally({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer })
  const keep = { validateStatus: () => true }
  const knex = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  let admin: AdminAuth

  beforeAll(async () => {
    admin = await createAdminUser(api, getContainer())
  })

  const refusedStart = async () => {
    // A stranger's cart with a number PayLater knows under another email: no match.
    const cart = await store.createCart({ regionId: seed.regionId, variantId: seed.variants.standard.id, email: "stranger@example.com" })
    const collection = await store.createPaymentCollection(cart.id)
    return api.post(
      `/store/payment-collections/${collection.id}/payment-sessions`,
      { provider_id: PAYLATER_RTP_PROVIDER_ID, data: { mobile_number: "+974 5111 8022" } },
      { headers: store.headers, ...keep }
    )
  }
  const funnel = async (query: string) => (await api.get(`/admin/paylater/reports/funnel?${query}`, { ...admin, ...keep })).data

  it("a refused store look-up shows in the period's lookup_refusals, with no attempt and nothing about the shopper kept", async () => {
    expect((await funnel("period=today")).request_to_pay.lookup_refusals).toBe(0)

    for (let i = 0; i < 2; i++) {
      const refused = await refusedStart()
      expect(refused.status).toBe(400)
      expect(refused.data.code).toBe("paylater_not_eligible")
    }
    expect(paylater().requests().filter((r) => r.endpoint === "rtp")).toHaveLength(0)

    const today = await funnel("period=today")
    expect(today.request_to_pay.lookup_refusals).toBe(2)
    // Nothing was started: the refusals are not attempts, pushes or errors.
    expect(today.methods.request_to_pay.attempts.started).toBe(0)
    expect(today.request_to_pay.pushes_sent).toBe(0)
    // The same in another zone's "today" (hours converted in SQL), and not in a past period.
    expect((await funnel("period=today&tz=UTC")).request_to_pay.lookup_refusals).toBe(2)
    expect((await funnel("period=custom&from=2000-01-01&to=2000-01-31")).request_to_pay.lookup_refusals).toBe(0)

    const rows = await knex().raw(`select * from paylater_lookup_refusal where deleted_at is null`)
    expect(rows.rows.reduce((s: number, r: { count: number }) => s + r.count, 0)).toBe(2)
    for (const r of rows.rows) {
      expect(r).toMatchObject({ kind: "request_to_pay", code: "paylater_not_eligible" })
      expect(new Date(r.hour).getTime() % 3_600_000).toBe(0)
      expect(Object.keys(r).sort()).toEqual(["code", "count", "created_at", "deleted_at", "hour", "id", "kind", "updated_at"])
    }
    expect(await knex()("paylater_attempt").count("* as n").first()).toMatchObject({ n: "0" })
  })
}

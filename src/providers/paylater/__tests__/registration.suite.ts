import { asFunction, asValue, Lifetime } from "@medusajs/framework/awilix"
import { createMedusaContainer } from "@medusajs/framework/utils"
import type { PayLaterConfig } from "../../../lib/paylater"
import { PayLaterLinkProviderService } from "../services/link"
import { PayLaterRequestToPayProviderService } from "../services/request-to-pay"
import { accountOf, registeredIdOf } from "../registration"
import type { PayLaterProviderOptions } from "../options"
import { FakePayLater, makeProvider, OPTIONS } from "./fake-api"
import { MemoryRefundLedger } from "./memory-ledger"

const quiet = { info() {}, warn() {}, error() {}, debug() {} }
const B_OPTIONS: PayLaterProviderOptions = { ...OPTIONS, clientId: "client-b", clientSecret: "b-secret", outletId: 1000000062, apiBaseUrl: "http://b.example" }

/**
 * The payment module's container as Medusa's provider loader fills it: each registration's service
 * as a singleton under `pp_<identifier>_<id>`, its id added to `payment_providers`
 * (@medusajs/payment/dist/loaders/providers.js).
 */
function paymentModuleContainer(entries: Array<{ Service: { identifier: string; new (c: any, o: PayLaterProviderOptions): object }; id: string; options: PayLaterProviderOptions }>) {
  const container = createMedusaContainer()
  container.register({ logger: asValue(quiet) })
  for (const { Service, id, options } of entries) {
    const key = `pp_${Service.identifier}_${id}`
    container.register({ [key]: asFunction((cradle) => new Service(cradle, options), { lifetime: Lifetime.SINGLETON }) })
    container.registerAdd("payment_providers", asValue(key))
  }
  return container
}

/** The link service over a fake PayLater and an in-memory ledger shared by every instance. */
function testLinkService(ledger: MemoryRefundLedger) {
  return class TestLink extends PayLaterLinkProviderService {
    protected createApi(config: PayLaterConfig) {
      const fake = new FakePayLater()
      fake.config = config
      return fake
    }
    protected ledger() {
      return ledger
    }
  }
}

const initiate = (provider: { initiatePayment: PayLaterLinkProviderService["initiatePayment"] }, session: string) =>
  provider.initiatePayment({ amount: 350, currency_code: "qar", data: { session_id: session }, context: { idempotency_key: session } } as never)

describe("each attempt records the registration that started it", () => {
  it("the write-ahead names the provider id Medusa registered the instance under, among two registrations of the same method, and its account", async () => {
    const ledger = new MemoryRefundLedger()
    const TestLink = testLinkService(ledger)
    const container = paymentModuleContainer([
      { Service: TestLink, id: "paylater", options: OPTIONS },
      { Service: TestLink, id: "paylater-b", options: B_OPTIONS },
      { Service: PayLaterRequestToPayProviderService, id: "paylater-b", options: B_OPTIONS },
    ])
    await initiate(container.resolve("pp_paylater_paylater-b"), "payses_B")
    await initiate(container.resolve("pp_paylater_paylater"), "payses_A")
    await initiate(container.resolve("pp_paylater_paylater-b"), "payses_B2")

    const row = (id: string) => ledger.rows.find((r) => r.paylater_order_id === id)
    expect(row("payses_B")).toMatchObject({ provider_id: "pp_paylater_paylater-b", paylater_account: "outlet 1000000062, client client-b, http://b.example" })
    expect(row("payses_B2")).toMatchObject({ provider_id: "pp_paylater_paylater-b" })
    expect(row("payses_A")).toMatchObject({ provider_id: "pp_paylater_paylater", paylater_account: "outlet 1000000061, client client-1, http://127.0.0.1:4010" })
    expect(JSON.stringify(ledger.rows)).not.toMatch(/secret/)
    // The other method of a registration is told apart by its identifier.
    const rtp = container.resolve<object>("pp_paylater-rtp_paylater-b")
    expect(registeredIdOf(container.cradle, rtp, "paylater-rtp")).toBe("pp_paylater-rtp_paylater-b")
    expect(registeredIdOf(container.cradle, rtp, "paylater")).toBeNull()
  })

  it("outside Medusa's registry the row records only the account, and the provider says so once", async () => {
    const { provider, ledger, logged } = makeProvider()
    await initiate(provider, "payses_1")
    await initiate(provider, "payses_2")
    expect(ledger.rows.map((r) => [r.provider_id, r.paylater_account])).toEqual([
      [null, "outlet 1000000061, client client-1, http://127.0.0.1:4010"],
      [null, "outlet 1000000061, client client-1, http://127.0.0.1:4010"],
    ])
    expect(logged.filter((l) => l.level === "warn" && /registry/.test(l.message))).toHaveLength(1)
  })

  it("a refund through Medusa is refused, nothing sent, for a payment this registration's account did not take", async () => {
    const { provider, ledger, fake } = makeProvider()
    await initiate(provider, "payses_1")
    const row = ledger.rows[0]
    Object.assign(row, { state: "paid", last_status_code: 2, paylater_account: "outlet 1000000062, client client-b, http://b.example" })
    const refused = await provider.refundPayment({ amount: 350, data: { paylater_order_id: "payses_1" } } as never).catch((e: unknown) => e)
    expect(refused).toMatchObject({ type: "not_allowed", message: expect.stringMatching(/another PayLater account \(outlet 1000000062/) })
    expect(fake.refunds).toEqual([])
  })

  it("a cradle that throws on unknown names (Awilix) answers null, not an error", () => {
    const container = createMedusaContainer()
    expect(registeredIdOf(container.cradle, {}, "paylater")).toBeNull()
  })

  it("the account is public-safe: outlet, client id and API base, never a secret", () => {
    const text = accountOf({ outletId: 7, clientId: "merchant-138", apiBaseUrl: "https://connect.paylaterapp.com" })
    expect(text).toBe("outlet 7, client merchant-138, https://connect.paylaterapp.com")
  })
})

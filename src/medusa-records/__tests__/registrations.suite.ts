import { resolveProviderOptions } from "../../providers/paylater/options"
import { accountOf } from "../../providers/paylater/registration"
import { matchRegistration, type ConfiguredRegistration } from "../registrations"

const BASE = {
  clientSecret: "secret",
  webhookSecret: "webhook-secret",
  merchantId: "one-merchant",
  backendUrl: "https://api.shop.qa",
  storefrontUrl: "https://shop.qa",
}
/** Two accounts of one merchant: another outlet and other credentials (the same merchant id). */
const A = resolveProviderOptions({ ...BASE, clientId: "client-a", outletId: 1000000061, apiBaseUrl: "https://a.example" }, { production: false })
const B = resolveProviderOptions({ ...BASE, clientId: "client-b", outletId: 1000000062, apiBaseUrl: "https://b.example" }, { production: false })
const ACCOUNT_A = accountOf(A.config)
const ACCOUNT_B = accountOf(B.config)
const TWO: ConfiguredRegistration[] = [
  { id: "paylater", options: A },
  { id: "paylater-b", options: B },
]

const row = (fields: { provider_id?: string | null; paylater_account?: string | null; kind?: "link" | "request_to_pay" }) => ({
  provider_id: fields.provider_id ?? null,
  paylater_account: fields.paylater_account ?? null,
  kind: fields.kind ?? "link",
})

describe("matchRegistration: the registration an attempt is asked about and refunded at", () => {
  it("two registrations with different accounts: each row goes to the one that started it", () => {
    expect(matchRegistration(row({ provider_id: "pp_paylater_paylater-b", paylater_account: ACCOUNT_B }), TWO)).toMatchObject({
      ok: true,
      id: "paylater-b",
      provider_id: "pp_paylater_paylater-b",
      options: B,
    })
    expect(matchRegistration(row({ provider_id: "pp_paylater-rtp_paylater", paylater_account: ACCOUNT_A, kind: "request_to_pay" }), TWO)).toMatchObject({
      ok: true,
      id: "paylater",
      provider_id: "pp_paylater-rtp_paylater",
    })
  })

  it("a registration removed from the configuration: nowhere, never the first or the only one left", () => {
    const onlyA = TWO.slice(0, 1)
    const match = matchRegistration(row({ provider_id: "pp_paylater_paylater-b", paylater_account: ACCOUNT_B }), onlyA)
    expect(match).toEqual({ ok: false, why: expect.stringMatching(/"paylater-b" .* no longer configured/) })
  })

  it("a registration that now points at another account: nowhere (the attempt's money is at the old one)", () => {
    const moved: ConfiguredRegistration[] = [{ id: "paylater", options: A }, { id: "paylater-b", options: A }]
    expect(matchRegistration(row({ provider_id: "pp_paylater_paylater-b", paylater_account: ACCOUNT_B }), moved)).toEqual({
      ok: false,
      why: expect.stringMatching(/"paylater-b" now points at another PayLater account/),
    })
  })

  it("a registration whose options the provider refused: nowhere", () => {
    const refused: ConfiguredRegistration[] = [{ id: "paylater", options: A }, { id: "paylater-b", options: null }]
    expect(matchRegistration(row({ provider_id: "pp_paylater_paylater-b" }), refused)).toMatchObject({ ok: false })
  })

  it("a provider id that is not PayLater's is never taken for one", () => {
    expect(matchRegistration(row({ provider_id: "pp_system_default" }), TWO)).toMatchObject({ ok: false })
  })

  it("a row linked by settlement before accounts were recorded: by its provider id", () => {
    expect(matchRegistration(row({ provider_id: "pp_paylater_paylater-b" }), TWO)).toMatchObject({ ok: true, id: "paylater-b" })
  })

  it("a legacy row without a provider id: only the registration with exactly its account", () => {
    expect(matchRegistration(row({ paylater_account: ACCOUNT_B }), TWO)).toMatchObject({ ok: true, id: "paylater-b", provider_id: "pp_paylater_paylater-b" })
    expect(matchRegistration(row({ paylater_account: ACCOUNT_B, kind: "request_to_pay" }), TWO)).toMatchObject({ provider_id: "pp_paylater-rtp_paylater-b" })
    expect(matchRegistration(row({ paylater_account: "outlet 9, client gone, https://gone.example" }), TWO)).toEqual({
      ok: false,
      why: expect.stringMatching(/no configured PayLater registration uses its account/),
    })
    const same: ConfiguredRegistration[] = [{ id: "paylater", options: A }, { id: "paylater-2", options: A }]
    expect(matchRegistration(row({ paylater_account: ACCOUNT_A }), same)).toEqual({ ok: false, why: expect.stringMatching(/several .*paylater, paylater-2/) })
  })

  it("a legacy row with neither provider id nor account: nowhere, even in a store with one registration", () => {
    expect(matchRegistration(row({}), TWO.slice(0, 1))).toEqual({ ok: false, why: expect.stringMatching(/recorded before/) })
  })
})

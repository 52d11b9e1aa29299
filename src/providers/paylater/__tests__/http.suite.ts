/**
 * The provider over the real PayLaterClient and HTTP (nock): what PayLater actually receives when
 * the first create times out.
 */
import nock from "nock"
import { PayLaterLinkProviderService } from "../services/link"
import { provideLedger } from "../../../modules/paylater-ledger/ledger-port"
import { OPTIONS } from "./fake-api"
import { MemoryRefundLedger } from "./memory-ledger"

const BASE = "http://paylater.test"
const TOKEN = "/auth/realms/api/protocol/openid-connect/token"
const LINK = "/api/paylater/merchant-portal/v2/web-checkout"

describe("initiatePayment over HTTP", () => {
  beforeAll(() => {
    nock.disableNetConnect()
    provideLedger(new MemoryRefundLedger())
  })
  afterEach(() => {
    // The delayed answer's timer would otherwise keep jest alive.
    nock.abortPendingRequests()
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it("sends the retry under a new order id, amount as a two-decimal number", async () => {
    const bodies: Record<string, unknown>[] = []
    nock(BASE)
      .post(TOKEN)
      .reply(200, { access_token: "tok-1", token_type: "Bearer", expires_in: 300 })
      .persist()
    nock(BASE)
      .post(LINK, (body) => (bodies.push(body), true))
      .delay(30_000)
      .reply(200, { paymentLinkUrl: "https://pay.example/late" })
    nock(BASE)
      .post(LINK, (body) => (bodies.push(body), true))
      .reply(200, { paymentLinkUrl: "https://pay.example/paylink/2?token=t&channel=web" })

    const quiet = { info() {}, warn() {}, error() {}, debug() {} }
    // The first create times out; the token and the retry must each be answered within the timeout,
    // which 300 ms was not on a loaded CI machine.
    const provider = new PayLaterLinkProviderService({ logger: quiet }, { ...OPTIONS, apiBaseUrl: BASE, timeoutMs: 2000 })
    const out = await provider.initiatePayment({
      amount: 350.005,
      currency_code: "qar",
      data: { session_id: "payses_HTTP" },
      context: { idempotency_key: "payses_HTTP" },
    })

    expect(bodies.map((b) => b.order_id)).toEqual(["payses_HTTP", "payses_HTTP-2"])
    expect(bodies[1]).toMatchObject({ outlet_id: 1000000061, currency: "QAR", amount: 350.01, expiry_duration: 60 })
    expect(out.data).toMatchObject({
      paylater_order_id: "payses_HTTP-2",
      payment_link_url: "https://pay.example/paylink/2?token=t&channel=web",
    })
    expect(JSON.stringify(out.data)).not.toContain("tok-1")
  }, 15_000)
})

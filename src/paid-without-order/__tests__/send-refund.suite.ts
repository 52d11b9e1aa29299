import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttentionRecord } from "../../modules/paylater-ledger/types"
import { sendRefund } from "../auto-refund"

const PAYLATER_OPTIONS = {
  clientId: "client-a",
  clientSecret: "secret",
  outletId: 1000000061,
  webhookSecret: "webhook-secret",
  apiBaseUrl: "https://a.example",
  backendUrl: "https://api.shop.qa",
  storefrontUrl: "https://shop.qa",
}

/** A store configured with one PayLater registration, `paylater`. */
function containerWithPayments() {
  const refundPayment = jest.fn(async () => ({}))
  const configModule = {
    modules: { payment: { options: { providers: [{ resolve: "./src/providers/paylater", id: "paylater", options: PAYLATER_OPTIONS }] } } },
  }
  const logger = { info() {}, warn() {}, error() {}, debug() {} }
  const container = {
    resolve: (key: string) => {
      if (key === Modules.PAYMENT) return { refundPayment }
      if (key === ContainerRegistrationKeys.CONFIG_MODULE) return configModule
      if (key === ContainerRegistrationKeys.LOGGER) return logger
      throw new Error(`unexpected resolve(${key})`)
    },
  } as unknown as MedusaContainer
  return { container, refundPayment }
}

const item = { id: "att_1", payment_id: "pay_1", amount: "350.01", paylater_order_id: "payses_1", session_id: "payses_1", detail: {} } as unknown as AttentionRecord
const ledgerWith = (provider_id: string | null) => ({ findAttempt: async () => ({ paylater_order_id: "payses_1", kind: "link", provider_id, paylater_account: null }) }) as never

describe("sendRefund through the Medusa payment", () => {
  it("names the ledger's two-decimal amount when none is given (Medusa's default may carry more decimals)", async () => {
    const { container, refundPayment } = containerWithPayments()
    await sendRefund(container, ledgerWith("pp_paylater_paylater"), item)
    expect(refundPayment).toHaveBeenCalledWith(expect.objectContaining({ payment_id: "pay_1", amount: "350.01" }))
  })

  it("names the operator's amount when one is given", async () => {
    const { container, refundPayment } = containerWithPayments()
    await sendRefund(container, ledgerWith("pp_paylater_paylater"), item, "100.00")
    expect(refundPayment).toHaveBeenCalledWith(expect.objectContaining({ payment_id: "pay_1", amount: "100.00" }))
  })
})

describe("sendRefund only at the registration that took the payment", () => {
  it.each([
    ["its registration is no longer configured", "pp_paylater_paylater-b", /"paylater-b" .* no longer configured/],
    ["its row names no registration or account", null, /recorded before/],
  ])("refuses (NOT_ALLOWED) and sends nothing when %s", async (_case, providerId, why) => {
    const { container, refundPayment } = containerWithPayments()
    const refused = await sendRefund(container, ledgerWith(providerId), item).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MedusaError)
    expect(refused).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED, message: expect.stringMatching(why) })
    expect(refundPayment).not.toHaveBeenCalled()
  })
})

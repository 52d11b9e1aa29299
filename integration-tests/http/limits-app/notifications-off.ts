/**
 * Issue 44: a store without Medusa's Notification Module (PAYLATER_TEST_NOTIFICATIONS=off, set at
 * boot by limits-app.spec.ts, disables it in medusa-config.ts) boots and takes PayLater payments as before; the merchant's notifications are
 * off, said once in the log, and the recovery job that would send them runs as usual.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { SuiteOptions } from "../../helpers/shared-app"
import type { SandboxHandle } from "../../helpers/sandbox"
import { useSeededStore } from "../../helpers/seeded-store"
import { PAYLATER_PROVIDER_ID } from "../../helpers/seed"
import { startCheckout } from "../../helpers/store-client"
import { decideOnLink, followToApp } from "../paylater-link/shopper"
import { ledgerForCart } from "../paylater-link/ledger"
import { PAYLATER_LEDGER_MODULE } from "../../../src/modules/paylater-ledger"
import type { PayLaterLedgerModuleService } from "../../../src/modules/paylater-ledger/service"
import { runRecovery } from "../../../src/job-runs/run-jobs"

export function notificationsOff({ api, getContainer }: SuiteOptions, paylater: SandboxHandle): void {
  const { seed, store } = useSeededStore({ api, getContainer }, { webhooks: paylater })

  it("boots without the module, pays by link into one order, and says once that notifications are off", async () => {
    expect(getContainer().resolve(Modules.NOTIFICATION, { allowUnregistered: true })).toBeUndefined()

    const started = await startCheckout(store, { regionId: seed.regionId, variantId: seed.variants.standard.id }, PAYLATER_PROVIDER_ID)
    const session = started.session.ok ? started.session.data.session : null
    expect(session).toBeTruthy()
    const location = await decideOnLink((session!.data as { payment_link_url: string }).payment_link_url, "approve")
    expect((await followToApp(api, location)).status).toBe(303)
    expect(await ledgerForCart(getContainer(), started.cart.id)).toMatchObject({ orders: 1, payments: 1, captures: 1 })

    // Something needs a person; the recovery job runs twice and tells nobody, saying why once.
    const ledger = getContainer().resolve<PayLaterLedgerModuleService>(PAYLATER_LEDGER_MODULE)
    const item = await ledger.flagForAttention("mismatch", { dedupe_key: "order_unfinished:test", summary: "test", order_id: "order_test" })
    const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
    const info = jest.spyOn(logger, "info")
    try {
      await runRecovery(getContainer())
      await runRecovery(getContainer())
      const said = info.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith("PayLater notifications"))
      expect(said).toEqual(["PayLater notifications: off (the store has no Notification Module); what needs a person is on Settings → PayLater only"])
    } finally {
      info.mockRestore()
    }
    const [still] = await ledger.listPayLaterAttentions({ id: item.id })
    expect(still).toMatchObject({ status: "open", notified_at: null })
  })
}

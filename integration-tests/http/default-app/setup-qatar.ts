/**
 * The one-command Qatar set-up (src/scripts/setup-qatar.ts) on a store as Medusa creates it (a store,
 * a default sales channel, nothing else): after one run a shopper in Qatar can check out with
 * PayLater; a second run changes nothing and says so. On a store that already has a Qatar region it
 * only adds what is missing, and it never moves Qatar out of another currency's region.
 */
import {
  createApiKeysWorkflow,
  createLinksWorkflow,
  createLocationFulfillmentSetWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import setupQatarScript from "../../../src/scripts/setup-qatar"
import { describeQatarSetup, QATAR_DELIVERY_PRICE, setUpQatar } from "../../../src/setup/qatar"
import { PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, type SeedResult } from "../../helpers/seed"
import { createStockedVariant } from "../paylater-paid-without-order/stock"
import { storeClient } from "../../helpers/store-client"
import type { SuiteOptions } from "../../helpers/shared-app"

type Json = Record<string, any>

async function qatarState(container: MedusaContainer): Promise<Json> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({
    entity: "region",
    fields: ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"],
  })
  const taxRegions = await container.resolve(Modules.TAX).listTaxRegions({ country_code: "qa" })
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const zones = await fulfillment.listServiceZones({ geo_zones: { country_code: "qa" } })
  const options = await fulfillment.listShippingOptions({ service_zone: { id: zones.map((z) => z.id) } })
  const { data: locations } = await query.graph({ entity: "stock_location", fields: ["id"] })
  const [store] = await container.resolve(Modules.STORE).listStores({}, { relations: ["supported_currencies"] })
  return {
    regions: regions.map((r: Json) => ({
      name: r.name,
      currency_code: r.currency_code,
      countries: r.countries.map((c: Json) => c.iso_2).sort(),
      payment_providers: r.payment_providers.map((p: Json) => p.id).sort(),
    })),
    taxRegions: taxRegions.length,
    zones: zones.length,
    options: options.map((o) => o.name),
    locations: locations.length,
    currencies: store.supported_currencies!.map((c) => c.currency_code).sort(),
  }
}

/** A storefront key for the default sales channel. */
async function publishableKey(container: MedusaContainer, salesChannelId: string): Promise<string> {
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "storefront", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannelId] } })
  return key.token
}

export function setupQatar({ api, getContainer }: SuiteOptions): void {
  it("sets up Qatar on a fresh store so PayLater takes a cart, and a second run changes nothing", async () => {
    const container = getContainer()
    const first = await setUpQatar(container)
    expect(first.changed.join("\n")).toMatch(/Added QAR to the store's currencies/)
    expect(first.changed.join("\n")).toMatch(/Created the region "Qatar"/)
    expect(first.changed.join("\n")).toMatch(/Created a tax region for Qatar/)
    expect(first.changed.join("\n")).toMatch(/Created the stock location "Doha warehouse"/)
    expect(first.changed.join("\n")).toMatch(/Created the service zone "Qatar"/)
    expect(first.changed.join("\n")).toMatch(/Created the shipping option "Standard delivery \(Qatar\)"/)
    const afterFirst = await qatarState(container)
    expect(afterFirst.regions).toEqual([
      {
        name: "Qatar",
        currency_code: "qar",
        countries: ["qa"],
        payment_providers: [PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID].sort(),
      },
    ])
    expect(afterFirst).toMatchObject({ taxRegions: 1, zones: 1, options: ["Standard delivery (Qatar)"], locations: 1 })
    expect(afterFirst.currencies).toContain("qar")

    // What the merchant adds by hand: products with prices (one fine, one under the link's
    // minimum, one with no QAR price at all).
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const [store] = await container.resolve(Modules.STORE).listStores({})
    const [profile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({ type: "default" })
    const {
      result: [product],
    } = await createProductsWorkflow(container).run({
      input: {
        products: [
          {
            title: "Thobe",
            status: "published",
            shipping_profile_id: profile.id,
            sales_channels: [{ id: store.default_sales_channel_id! }],
            options: [{ title: "Size", values: ["M", "S", "L"] }],
            variants: [
              { title: "M", sku: "THOBE-M", manage_inventory: false, options: { Size: "M" }, prices: [{ currency_code: "qar", amount: 350 }] },
              { title: "S", sku: "THOBE-S", manage_inventory: false, options: { Size: "S" }, prices: [{ currency_code: "qar", amount: 100 }] },
              { title: "L", sku: "THOBE-L", manage_inventory: false, options: { Size: "L" }, prices: [{ currency_code: "usd", amount: 90 }] },
            ],
          },
        ],
      },
    })

    const second = await setUpQatar(container)
    expect(second.changed).toEqual([])
    expect(describeQatarSetup(second)).toMatch(/Changed: nothing \(everything was already there\)/)
    expect(second.forPerson.join("\n")).toMatch(/1 of 3 product variants have no QAR price/)
    expect(second.forPerson.join("\n")).toMatch(/1 product variants cost less than 300\.00 QAR/)
    expect(await qatarState(container)).toEqual(afterFirst)

    // A shopper in Doha: the new region, the new delivery, a PayLater payment link.
    const shop = storeClient(api, await publishableKey(container, store.default_sales_channel_id!))
    const { data: [qatar] } = await query.graph({ entity: "region", fields: ["id"], filters: { currency_code: "qar" } })
    const variantM = product.variants.find((v) => v.sku === "THOBE-M")!
    const cart = await shop.createCart({ regionId: qatar.id, variantId: variantM.id })
    expect(Number(cart.total)).toBe(350 + QATAR_DELIVERY_PRICE)
    const collection = await shop.createPaymentCollection(cart.id)
    const link = await shop.createPaymentSession(collection.id, PAYLATER_PROVIDER_ID)
    expect(link.ok && link.data.session?.data).toMatchObject({ currency: "QAR", amount: "360.00" })
  })

  it("on a store like Medusa's DTC starter, ships to Qatar from the warehouse that holds the stock", async () => {
    const container = getContainer()
    // The starter's seed, in short: a European warehouse selling through the default channel,
    // delivering to a European zone, stock managed there.
    const [store] = await container.resolve(Modules.STORE).listStores({})
    const channel = store.default_sales_channel_id!
    const {
      result: [warehouse],
    } = await createStockLocationsWorkflow(container).run({
      input: { locations: [{ name: "European Warehouse", address: { address_1: "", city: "Copenhagen", country_code: "dk" } }] },
    })
    await createLinksWorkflow(container).run({
      input: [{ [Modules.STOCK_LOCATION]: { stock_location_id: warehouse.id }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } }],
    })
    await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: warehouse.id, add: [channel] } })
    await createLocationFulfillmentSetWorkflow(container).run({
      input: { location_id: warehouse.id, fulfillment_set_data: { name: "European Warehouse delivery", type: "shipping" } },
    })
    const fulfillment = container.resolve(Modules.FULFILLMENT)
    const [set] = await fulfillment.listFulfillmentSets({ name: "European Warehouse delivery" })
    await createServiceZonesWorkflow(container).run({
      input: { data: [{ name: "Europe", fulfillment_set_id: set.id, geo_zones: [{ type: "country", country_code: "dk" }] }] },
    })
    const {
      result: [profile],
    } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default Shipping Profile", type: "default" }] } })
    const stocked = await createStockedVariant(container, { shippingProfileId: profile.id, salesChannelId: channel, stockLocationId: warehouse.id } as SeedResult, 350)

    const report = await setUpQatar(container)
    expect(report.unchanged).toContain('Ships to Qatar from the existing stock location "European Warehouse".')
    expect(report.changed.join("\n")).not.toMatch(/stock location|fulfillment set|shipping profile/)
    const zones = await fulfillment.listServiceZones({ fulfillment_set: { id: set.id } }, { relations: ["geo_zones"] })
    expect(zones.map((z) => [z.name, z.geo_zones.map((g) => g.country_code)]).sort()).toEqual([["Europe", ["dk"]], ["Qatar", ["qa"]]])

    const shop = storeClient(api, await publishableKey(container, channel))
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: [qatar] } = await query.graph({ entity: "region", fields: ["id"], filters: { currency_code: "qar" } })
    const cart = await shop.createCart({ regionId: qatar.id, variantId: stocked.variantId })
    const offered = await shop.get<{ shipping_options: Array<{ name: string }> }>(`/store/shipping-options?cart_id=${cart.id}`)
    expect(offered.ok && offered.data.shipping_options.map((o) => o.name)).toEqual(["Standard delivery (Qatar)"])
    expect(Number(cart.total)).toBe(350 + QATAR_DELIVERY_PRICE)
  })

  it("on a store with a Qatar region in QAR, only adds the PayLater providers and what else is missing", async () => {
    const container = getContainer()
    await createRegionsWorkflow(container).run({
      input: { regions: [{ name: "Middle East", currency_code: "qar", countries: ["qa", "bh"], payment_providers: ["pp_system_default"] }] },
    })
    const report = await setUpQatar(container)
    expect(report.changed.join("\n")).toMatch(
      new RegExp(`Added ${[PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID].sort().join(", ")} to the payment providers of the region "Middle East"`)
    )
    expect(report.changed.join("\n")).not.toMatch(/Created the region/)
    const { regions } = await qatarState(container)
    expect(regions).toEqual([
      {
        name: "Middle East",
        currency_code: "qar",
        countries: ["bh", "qa"],
        payment_providers: ["pp_system_default", PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID].sort(),
      },
    ])
  })

  it("leaves Qatar in another currency's region for a person, and says so", async () => {
    const container = getContainer()
    await createRegionsWorkflow(container).run({
      input: { regions: [{ name: "Gulf (USD)", currency_code: "usd", countries: ["qa"], payment_providers: ["pp_system_default"] }] },
    })
    const report = await setUpQatar(container)
    expect(report.forPerson.join("\n")).toMatch(/Qatar belongs to the region "Gulf \(USD\)", whose currency is USD; PayLater takes QAR only/)
    const { regions } = await qatarState(container)
    expect(regions).toEqual([{ name: "Gulf (USD)", currency_code: "usd", countries: ["qa"], payment_providers: ["pp_system_default"] }])
  })

  it("offers only the PayLater providers loaded now, and changes nothing when there is none", async () => {
    const container = getContainer()
    // What Medusa does to a provider taken out of medusa-config: its row stays, disabled.
    const disable = (ids: string[]) =>
      container.resolve(ContainerRegistrationKeys.PG_CONNECTION)("payment_provider").whereIn("id", ids).update({ is_enabled: false })
    await disable([PAYLATER_RTP_PROVIDER_ID])
    const before = await qatarState(container)
    await disable([PAYLATER_PROVIDER_ID])
    await expect(setUpQatar(container)).rejects.toThrow(/No PayLater payment provider is registered in this store, so nothing was changed/)
    expect(await qatarState(container)).toEqual(before)

    await container.resolve(ContainerRegistrationKeys.PG_CONNECTION)("payment_provider").where("id", PAYLATER_PROVIDER_ID).update({ is_enabled: true })
    await setUpQatar(container)
    const { regions } = await qatarState(container)
    expect(regions).toEqual([{ name: "Qatar", currency_code: "qar", countries: ["qa"], payment_providers: [PAYLATER_PROVIDER_ID] }])
  })

  it("is what `medusa exec` runs: the script prints the report through the logger", async () => {
    const container = getContainer()
    const lines: string[] = []
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const info = jest.spyOn(logger, "info").mockImplementation((message: string) => void lines.push(message))
    try {
      await setupQatarScript({ container, args: [] } as any)
      await setupQatarScript({ container, args: [] } as any)
    } finally {
      info.mockRestore()
    }
    const reports = lines.filter((l) => l.startsWith("PayLater Qatar set-up:"))
    expect(reports).toHaveLength(2)
    expect(reports[0]).toMatch(/Changed:\n  - Added QAR/)
    expect(reports[1]).toMatch(/Changed: nothing/)
    expect(reports[1]).toMatch(/The region "Qatar" \(QAR\) already offers/)
    expect(reports[1]).toMatch(/Left for you:\n[\s\S]*webhook URL/)
  })
}

/**
 * Seeds everything a real store-API checkout needs, through Medusa's own workflows (the same ones
 * the admin routes run), so the data has every link and rule a real store has.
 *
 * Plain async function over a container: the integration specs call it from a `beforeAll` inside
 * `medusaIntegrationTestRunner` (the runner snapshots the database after that hook, so every `it`
 * starts from the seeded state), and the demo can call it from `medusa exec`. No jest here.
 *
 * Deliberately no tax regions: cart totals are then exactly items + shipping, which keeps the
 * amounts PayLater sees predictable (350.00 + 10.00 shipping = 360.00 QAR).
 */
import {
  createApiKeysWorkflow,
  createLinksWorkflow,
  createLocationFulfillmentSetWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

/** Provider ids as Medusa names them: `pp_<identifier>_<id from medusa-config>`. */
export const PAYLATER_PROVIDER_ID = "pp_paylater_paylater"
export const PAYLATER_RTP_PROVIDER_ID = "pp_paylater-rtp_paylater"
export const SYSTEM_PROVIDER_ID = "pp_system_default"
/** The payment link of medusa-config.ts's second registration (`paylater-b`), registered only when PAYLATER_B_API_BASE_URL is set. */
export const PAYLATER_B_PROVIDER_ID = "pp_paylater_paylater-b"
const WANTED_PROVIDERS = [PAYLATER_PROVIDER_ID, PAYLATER_RTP_PROVIDER_ID, SYSTEM_PROVIDER_ID, PAYLATER_B_PROVIDER_ID]

/** The default manual fulfillment provider every Medusa app registers (`manual_manual`). */
const FULFILLMENT_PROVIDER_ID = "manual_manual"

/**
 * Variant prices. QAR amounts straddle PayLater's default outlet bounds (300 .. 25000 QAR) so
 * tests can pick "too small", "fine", "fractional" and "too large" without computing anything.
 */
export const SEED_PRICES = {
  belowMin: { qar: 100, eur: 25 },
  standard: { qar: 350, eur: 90 },
  fractional: { qar: 1250.5, eur: 310.25 },
  aboveMax: { qar: 30000, eur: 7500 },
} as const

export type SeedVariantKey = keyof typeof SEED_PRICES

export interface SeededVariant {
  id: string
  sku: string
  /** Unit price in major units. */
  qar: number
  eur: number
}

export interface SeedStoreOptions {
  /**
   * Also offer the PayLater providers in the EUR region (default true). A merchant can do that in
   * the admin, so the provider itself must refuse non-QAR carts; tests need to reach it to prove so.
   */
  paylaterInEuRegion?: boolean
  /** Flat shipping price in QAR (default 10) and EUR (default 5), major units. */
  qarShippingAmount?: number
  eurShippingAmount?: number
  /** Title prefix, so a demo database seeded next to other data stays recognisable. */
  label?: string
}

export interface SeedResult {
  storeId: string
  regionId: string
  euRegionId: string
  /** What the Qatar region offers (registered providers only). */
  regionPaymentProviders: string[]
  euRegionPaymentProviders: string[]
  salesChannelId: string
  publishableKey: string
  stockLocationId: string
  shippingProfileId: string
  shippingOptionId: string
  euShippingOptionId: string
  productId: string
  variants: Record<SeedVariantKey, SeededVariant>
  /** Variant id by QAR unit price, keyed by `String(amount)` ("100", "350", "1250.5", "30000"). */
  variantIdByQar: Record<string, string>
}

/** Payment providers from `WANTED_PROVIDERS` that this app actually registered and enabled. */
async function registeredProviders(container: MedusaContainer): Promise<string[]> {
  const payment = container.resolve(Modules.PAYMENT)
  const providers = await payment.listPaymentProviders({ id: WANTED_PROVIDERS })
  const enabled = new Set(providers.filter((p) => p.is_enabled).map((p) => p.id))
  return WANTED_PROVIDERS.filter((id) => enabled.has(id))
}

export async function seedStore(
  container: MedusaContainer,
  opts: SeedStoreOptions = {}
): Promise<SeedResult> {
  const label = opts.label ?? "PayLater test"
  const qarShipping = opts.qarShippingAmount ?? 10
  const eurShipping = opts.eurShippingAmount ?? 5
  const query = container.resolve(ContainerRegistrationKeys.QUERY)

  const providers = await registeredProviders(container)
  const euProviders =
    opts.paylaterInEuRegion === false ? providers.filter((p) => p === SYSTEM_PROVIDER_ID) : providers

  // Sales channel + publishable key: every /store call carries the key, which scopes the cart.
  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: `${label} channel` }] },
  })
  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: `${label} storefront`, type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: apiKey.id, add: [salesChannel.id] },
  })

  // The boot-time defaults workflow created one store; make it a QAR store selling through our
  // channel (EUR stays supported for the second region).
  const [store] = await container.resolve(Modules.STORE).listStores({}, { take: 1 })
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [
          { currency_code: "qar", is_default: true },
          { currency_code: "eur" },
        ],
        default_sales_channel_id: salesChannel.id,
      },
    },
  })

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "Qatar", currency_code: "qar", countries: ["qa"], payment_providers: providers },
        { name: "Germany", currency_code: "eur", countries: ["de"], payment_providers: euProviders },
      ],
    },
  })
  const qatar = regions.find((r) => r.currency_code === "qar")!
  const germany = regions.find((r) => r.currency_code === "eur")!
  await updateStoresWorkflow(container).run({
    input: { selector: { id: store.id }, update: { default_region_id: qatar.id } },
  })

  // Stock location: shipping options are found through sales channel -> stock location ->
  // fulfillment set -> service zone, and the location must allow the manual fulfillment provider.
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        { name: `${label} Doha warehouse`, address: { address_1: "Salwa Road", city: "Doha", country_code: "qa" } },
      ],
    },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: location.id, add: [salesChannel.id] },
  })
  await createLinksWorkflow(container).run({
    input: [
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
        [Modules.FULFILLMENT]: { fulfillment_provider_id: FULFILLMENT_PROVIDER_ID },
      },
    ],
  })
  await createLocationFulfillmentSetWorkflow(container).run({
    input: {
      location_id: location.id,
      fulfillment_set_data: { name: `${label} delivery`, type: "shipping" },
    },
  })
  // The workflow returns nothing useful: read the set back through the link.
  const {
    data: [locationWithSets],
  } = await query.graph({
    entity: "stock_location",
    fields: ["fulfillment_sets.id"],
    filters: { id: location.id },
  })
  const fulfillmentSetId = locationWithSets.fulfillment_sets![0]!.id

  const { result: zones } = await createServiceZonesWorkflow(container).run({
    input: {
      data: [
        { name: "Qatar", fulfillment_set_id: fulfillmentSetId, geo_zones: [{ type: "country", country_code: "qa" }] },
        { name: "Germany", fulfillment_set_id: fulfillmentSetId, geo_zones: [{ type: "country", country_code: "de" }] },
      ],
    },
  })
  const zoneQa = zones.find((z) => z.name === "Qatar")!
  const zoneDe = zones.find((z) => z.name === "Germany")!

  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: `${label} profile`, type: "default" }] },
  })

  // Same rules the admin sets: visible in the store, not a return option.
  const storeRules = [
    { attribute: "enabled_in_store", operator: "eq" as const, value: "true" },
    { attribute: "is_return", operator: "eq" as const, value: "false" },
  ]
  const shippingType = { label: "Standard", description: "Delivered in 1-3 days", code: "standard" }
  const { result: options } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Doha delivery",
        price_type: "flat",
        service_zone_id: zoneQa.id,
        shipping_profile_id: profile.id,
        provider_id: FULFILLMENT_PROVIDER_ID,
        type: shippingType,
        prices: [
          { currency_code: "qar", amount: qarShipping },
          { region_id: qatar.id, amount: qarShipping },
        ],
        rules: storeRules,
      },
      {
        name: "Germany delivery",
        price_type: "flat",
        service_zone_id: zoneDe.id,
        shipping_profile_id: profile.id,
        provider_id: FULFILLMENT_PROVIDER_ID,
        type: shippingType,
        prices: [
          { currency_code: "eur", amount: eurShipping },
          { region_id: germany.id, amount: eurShipping },
        ],
        rules: storeRules,
      },
    ],
  })
  const qaOption = options.find((o) => o.service_zone_id === zoneQa.id)!
  const deOption = options.find((o) => o.service_zone_id === zoneDe.id)!

  // One product, one variant per price point. No inventory management: stock is not under test.
  const keys = Object.keys(SEED_PRICES) as SeedVariantKey[]
  const sku = (k: SeedVariantKey) => `PAYLATER-TEST-${k.toUpperCase()}`
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: `${label} product`,
          handle: `${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-product`,
          status: "published",
          shipping_profile_id: profile.id,
          sales_channels: [{ id: salesChannel.id }],
          options: [{ title: "Price point", values: keys }],
          variants: keys.map((k) => ({
            title: k,
            sku: sku(k),
            manage_inventory: false,
            options: { "Price point": k },
            prices: [
              { currency_code: "qar", amount: SEED_PRICES[k].qar },
              { currency_code: "eur", amount: SEED_PRICES[k].eur },
            ],
          })),
        },
      ],
    },
  })

  const variants = {} as Record<SeedVariantKey, SeededVariant>
  const variantIdByQar: Record<string, string> = {}
  for (const k of keys) {
    const v = product.variants.find((pv) => pv.sku === sku(k))!
    variants[k] = { id: v.id, sku: sku(k), qar: SEED_PRICES[k].qar, eur: SEED_PRICES[k].eur }
    variantIdByQar[String(SEED_PRICES[k].qar)] = v.id
  }

  return {
    storeId: store.id,
    regionId: qatar.id,
    euRegionId: germany.id,
    regionPaymentProviders: providers,
    euRegionPaymentProviders: euProviders,
    salesChannelId: salesChannel.id,
    publishableKey: apiKey.token,
    stockLocationId: location.id,
    shippingProfileId: profile.id,
    shippingOptionId: qaOption.id,
    euShippingOptionId: deOption.id,
    productId: product.id,
    variants,
    variantIdByQar,
  }
}

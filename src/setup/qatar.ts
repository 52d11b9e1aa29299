/**
 * The Qatar set-up a merchant runs once to try PayLater (`medusa exec`, see src/scripts/setup-qatar.ts):
 * QAR in the store, a Qatar region in QAR offering the registered PayLater providers, delivery to
 * Qatar, and a tax region for Qatar. Idempotent: each part is looked for first and only what is
 * missing is created, so a second run changes nothing and says so.
 *
 * Everything goes through Medusa's own workflows (the ones the admin routes run), so the data has
 * every link and rule the admin would give it. It never runs by itself: no migration, no loader.
 */
import {
  createLinksWorkflow,
  createLocationFulfillmentSetWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { compareAmounts, PAYLATER_MIN_AMOUNT } from "../lib/paylater"
import { readRegistrations } from "../medusa-records/registrations"

const QA = "qa"
const QAR = "qar"
/** Every Medusa app registers the manual fulfillment provider; the starter's shipping uses it. */
const MANUAL_FULFILLMENT = "manual_manual"
/** Medusa's built-in tax provider (what the admin picks for a new tax region). */
const SYSTEM_TAX_PROVIDER = "tp_system"
/** A placeholder delivery price, in QAR, for a store that has no delivery to Qatar at all. */
export const QATAR_DELIVERY_PRICE = 10

export interface QatarSetupReport {
  /** What this run created or changed, one sentence each. */
  changed: string[]
  /** What was already there and left as it was. */
  unchanged: string[]
  /** What a person still has to do before PayLater can take a payment. */
  forPerson: string[]
}

type Json = Record<string, any>

/** The report as the script prints it. */
export function describeQatarSetup(report: QatarSetupReport): string {
  const list = (items: string[]) => items.map((line) => `  - ${line}`).join("\n")
  return [
    "PayLater Qatar set-up:",
    report.changed.length ? `Changed:\n${list(report.changed)}` : "Changed: nothing (everything was already there).",
    report.unchanged.length ? `Already there, left as it was:\n${list(report.unchanged)}` : "",
    report.forPerson.length ? `Left for you:\n${list(report.forPerson)}` : "",
  ]
    .filter(Boolean)
    .join("\n")
}

export async function setUpQatar(container: MedusaContainer): Promise<QatarSetupReport> {
  const report: QatarSetupReport = { changed: [], unchanged: [], forPerson: [] }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)

  const registrations = await readRegistrations(container)
  // A provider taken out of medusa-config keeps its row, disabled: offer only the ones loaded now.
  const known = registrations.flatMap((r) => r.provider_ids)
  const enabled = known.length
    ? await container.resolve(Modules.PAYMENT).listPaymentProviders({ id: known, is_enabled: true })
    : []
  const providerIds = known.filter((id) => enabled.some((p) => p.id === id))
  if (!providerIds.length) {
    // Nothing is created: a Qatar region without PayLater would only hide the real problem.
    throw new Error(
      "No PayLater payment provider is registered in this store, so nothing was changed. Add the provider " +
        'under the Payment Module in medusa-config.ts ("modules", README section 2) and run this again.'
    )
  }

  const store = await ensureQarInStore(container, report)
  const region = await ensureQatarRegion(container, query, providerIds, report)
  await ensureTaxRegion(container, report)
  await ensureDelivery(container, query, store, region, report)
  await reportPrices(container, query, registrations, report)
  return report
}

async function ensureQarInStore(container: MedusaContainer, report: QatarSetupReport): Promise<Json> {
  const [store] = await container.resolve(Modules.STORE).listStores({}, { relations: ["supported_currencies"], take: 1 })
  if (!store) throw new Error("This database has no store: run `npx medusa db:migrate` first.")
  const currencies = (store.supported_currencies ?? []) as Json[]
  if (currencies.some((c) => c.currency_code === QAR)) {
    report.unchanged.push("The store already supports QAR.")
    return store
  }
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [
          ...currencies.map((c) => ({ currency_code: c.currency_code, is_default: c.is_default })),
          { currency_code: QAR, is_default: currencies.length === 0 },
        ],
      },
    },
  })
  report.changed.push("Added QAR to the store's currencies.")
  return store
}

async function ensureQatarRegion(
  container: MedusaContainer,
  query: Json,
  providerIds: string[],
  report: QatarSetupReport
): Promise<Json | null> {
  const { data: regions } = await query.graph({
    entity: "region",
    fields: ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"],
  })
  const existing = (regions as Json[]).find((r) => (r.countries ?? []).some((c: Json) => c?.iso_2 === QA))
  const names = providerIds.join(", ")

  if (!existing) {
    const {
      result: [created],
    } = await createRegionsWorkflow(container).run({
      input: { regions: [{ name: "Qatar", currency_code: QAR, countries: [QA], payment_providers: providerIds }] },
    })
    report.changed.push(`Created the region "Qatar" (QAR, country Qatar) with the payment providers ${names}.`)
    return created
  }
  if (existing.currency_code !== QAR) {
    // Moving a country between currencies changes what shoppers pay: a person decides that.
    report.forPerson.push(
      `Qatar belongs to the region "${existing.name}", whose currency is ${String(existing.currency_code).toUpperCase()}; ` +
        "PayLater takes QAR only. Move Qatar to a QAR region (Settings → Regions), then run this again."
    )
    return null
  }
  const has = new Set(((existing.payment_providers ?? []) as Json[]).map((p) => p?.id))
  const missing = providerIds.filter((id) => !has.has(id))
  if (!missing.length) {
    report.unchanged.push(`The region "${existing.name}" (QAR) already offers ${names}.`)
    return existing
  }
  await updateRegionsWorkflow(container).run({
    input: { selector: { id: existing.id }, update: { payment_providers: [...has, ...missing] } },
  })
  report.changed.push(`Added ${missing.join(", ")} to the payment providers of the region "${existing.name}".`)
  return existing
}

async function ensureTaxRegion(container: MedusaContainer, report: QatarSetupReport): Promise<void> {
  const tax = container.resolve(Modules.TAX)
  // Provinces are tax regions too (with a parent): only the country's own counts.
  const existing = (await tax.listTaxRegions({ country_code: QA })).find((r) => !r.parent_id)
  if (existing) {
    report.unchanged.push("A tax region for Qatar already exists.")
    return
  }
  const systemProvider = await tax.listTaxProviders({ id: SYSTEM_TAX_PROVIDER })
  await createTaxRegionsWorkflow(container).run({
    input: [{ country_code: QA, ...(systemProvider.length ? { provider_id: SYSTEM_TAX_PROVIDER } : {}) }],
  })
  report.changed.push("Created a tax region for Qatar with no tax rate (Qatar has no VAT); add a rate under Settings → Tax Regions if one applies to you.")
}

/**
 * Delivery to Qatar: a service zone covering Qatar in a shipping fulfillment set, and a shipping
 * option in it. The zone goes into the set of a stock location the store's default sales channel
 * already ships from (where its stock is), so carts find it; only a store with no such location
 * gets a new one.
 */
async function ensureDelivery(
  container: MedusaContainer,
  query: Json,
  store: Json,
  region: Json | null,
  report: QatarSetupReport
): Promise<void> {
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const zonesForQatar = (
    await fulfillment.listServiceZones(
      { geo_zones: { country_code: QA, type: "country" } },
      { relations: ["fulfillment_set", "geo_zones"] }
    )
  ).filter((zone) => zone.fulfillment_set?.type === "shipping")

  let zoneId: string
  if (zonesForQatar.length) {
    zoneId = zonesForQatar[0].id
    report.unchanged.push(`Delivery to Qatar already has a service zone ("${zonesForQatar[0].name}").`)
  } else {
    const setId = await shippingSetFor(container, query, store, report)
    const taken = new Set((await fulfillment.listServiceZones({ name: ["Qatar", "Qatar delivery"] })).map((z) => z.name))
    const name = taken.has("Qatar") ? "Qatar delivery" : "Qatar"
    const { result: zones } = await createServiceZonesWorkflow(container).run({
      input: { data: [{ name, fulfillment_set_id: setId, geo_zones: [{ type: "country", country_code: QA }] }] },
    })
    zoneId = zones[0].id
    report.changed.push(`Created the service zone "${name}" (country Qatar) for delivery.`)
  }

  const options = await fulfillment.listShippingOptions({ service_zone: { id: zoneId } }, { relations: ["rules"] })
  const forShoppers = options.filter((o) => !(o.rules ?? []).some((r) => r.attribute === "is_return" && String(r.value) === "true"))
  if (forShoppers.length) {
    report.unchanged.push(`Delivery to Qatar already has a shipping option ("${forShoppers[0].name}").`)
    return
  }
  const profileId = await defaultShippingProfile(container, report)
  await ensureManualProviderAt(container, query, zoneId)
  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard delivery (Qatar)",
        price_type: "flat",
        service_zone_id: zoneId,
        shipping_profile_id: profileId,
        provider_id: MANUAL_FULFILLMENT,
        type: { label: "Standard", description: "Delivery in Qatar", code: "standard" },
        prices: [
          { currency_code: QAR, amount: QATAR_DELIVERY_PRICE },
          ...(region ? [{ region_id: region.id as string, amount: QATAR_DELIVERY_PRICE }] : []),
        ],
        rules: [
          { attribute: "enabled_in_store", operator: "eq", value: "true" },
          { attribute: "is_return", operator: "eq", value: "false" },
        ],
      },
    ],
  })
  report.changed.push(
    `Created the shipping option "Standard delivery (Qatar)" at ${QATAR_DELIVERY_PRICE} QAR; set your own price under Settings → Locations & Shipping.`
  )
}

/** The shipping fulfillment set the Qatar zone goes into (created, with its location, if none fits). */
async function shippingSetFor(container: MedusaContainer, query: Json, store: Json, report: QatarSetupReport): Promise<string> {
  const { data: locations } = await query.graph({
    entity: "stock_location",
    fields: ["id", "name", "fulfillment_sets.id", "fulfillment_sets.type", "sales_channels.id"],
  })
  const channel: string | undefined = store.default_sales_channel_id ?? undefined
  const sells = (l: Json) => !channel || (l.sales_channels ?? []).some((s: Json) => s?.id === channel)
  const withSet = (l: Json) => (l.fulfillment_sets ?? []).find((s: Json) => s?.type === "shipping")
  const usable = (locations as Json[]).filter(sells)
  const located = usable.find(withSet)
  if (located) {
    report.unchanged.push(`Ships to Qatar from the existing stock location "${located.name}".`)
    return withSet(located).id
  }

  let location = usable[0]
  if (!location) {
    const {
      result: [created],
    } = await createStockLocationsWorkflow(container).run({
      input: { locations: [{ name: "Doha warehouse", address: { address_1: "", city: "Doha", country_code: QA } }] },
    })
    location = created
    if (channel) {
      await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: created.id, add: [channel] } })
    }
    report.changed.push(`Created the stock location "Doha warehouse"${channel ? ", linked to the default sales channel" : ""}.`)
  }
  const setName = `${location.name} delivery to Qatar`
  await createLocationFulfillmentSetWorkflow(container).run({
    input: { location_id: location.id, fulfillment_set_data: { name: setName, type: "shipping" } },
  })
  report.changed.push(`Created the shipping fulfillment set "${setName}" at "${location.name}".`)
  const { data: [withNewSet] } = await query.graph({
    entity: "stock_location",
    fields: ["fulfillment_sets.id", "fulfillment_sets.type"],
    filters: { id: location.id },
  })
  return withSet(withNewSet).id
}

/** Shipping options need the location of their zone to allow their fulfillment provider. */
async function ensureManualProviderAt(container: MedusaContainer, query: Json, zoneId: string): Promise<void> {
  const { data: [zone] } = await query.graph({
    entity: "service_zone",
    fields: ["fulfillment_set.location.id", "fulfillment_set.location.fulfillment_providers.id"],
    filters: { id: zoneId },
  })
  const location = zone?.fulfillment_set?.location
  if (!location) return
  if ((location.fulfillment_providers ?? []).some((p: Json) => p?.id === MANUAL_FULFILLMENT)) return
  await createLinksWorkflow(container).run({
    input: [
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
        [Modules.FULFILLMENT]: { fulfillment_provider_id: MANUAL_FULFILLMENT },
      },
    ],
  })
}

async function defaultShippingProfile(container: MedusaContainer, report: QatarSetupReport): Promise<string> {
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const [profile] = await fulfillment.listShippingProfiles({ type: "default" }, { take: 1 })
  if (profile) return profile.id
  const {
    result: [created],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default Shipping Profile", type: "default" }] } })
  report.changed.push('Created the shipping profile "Default Shipping Profile".')
  return created.id
}

/** Prices are the merchant's to set: only say which variants cannot be paid with PayLater yet. */
async function reportPrices(
  container: MedusaContainer,
  query: Json,
  registrations: Array<{ options: { config: { minAmount: string } } | null }>,
  report: QatarSetupReport
): Promise<void> {
  const minimum = registrations.map((r) => r.options?.config.minAmount ?? PAYLATER_MIN_AMOUNT).sort(compareAmounts)[0]
  const { data: variants } = await query.graph({
    entity: "product_variant",
    fields: ["id", "price_set.prices.amount", "price_set.prices.currency_code", "price_set.prices.price_rules.id"],
  })
  const qarPrice = (v: Json): Json | undefined =>
    (v.price_set?.prices ?? []).find((p: Json) => p?.currency_code === QAR && !(p.price_rules ?? []).length)
  const unpriced = (variants as Json[]).filter((v) => !qarPrice(v)).length
  const belowMinimum = (variants as Json[]).filter((v) => {
    const price = qarPrice(v)
    return price && compareAmounts(price.amount, minimum) < 0
  }).length
  if (unpriced) {
    report.forPerson.push(
      `${unpriced} of ${variants.length} product variants have no QAR price: a shopper in Qatar cannot buy them. ` +
        "Add QAR prices in the admin (a product → Variants → Edit prices)."
    )
  }
  if (belowMinimum) {
    report.forPerson.push(
      `${belowMinimum} product variants cost less than ${minimum} QAR in QAR, the least a PayLater payment link takes ` +
        "(the cart total counts, so several items or delivery can reach it; Request to Pay has its own minimum)."
    )
  }
  report.forPerson.push("Give PayLater your webhook URL (README section 4) before taking real payments.")
}
